import { unitsToYuan, yuanToUnits } from '@gpu/shared/money';
import type { CalculatePriceResponse } from '@gpu/shared/pricing';
import { computeOrderPrice } from '@gpu/shared/pricing';
import { describe, expect, it } from 'vitest';
import {
  discountRateBp,
  type OrderInput,
  orderFigures,
  orderHours,
  orderRunway,
  orderUnits,
  packagePricesFor,
  quoteMatches,
  spendRate,
} from './order-figures';
import { marketItem } from './test-fixtures';

const l40s = marketItem();
const rtx4090 = marketItem({
  originalPrice: 1.98,
  price: 1.98,
  discountPrice: 1.58,
  discountRate: 0.8,
  hasDiscount: true,
});
const a100Config = { daily: yuanToUnits(150), weekly: yuanToUnits(900), monthly: yuanToUnits(3300) };

const base: OrderInput = {
  item: l40s,
  billingType: 'hourly',
  duration: 1,
  gpuAmount: 1,
  packagePrices: null,
  discountLive: true,
  voucherRemaining: null,
};

describe('order figures (the bottom bar) = computeOrderPrice', () => {
  const cases: [string, OrderInput, Parameters<typeof computeOrderPrice>[0]][] = [
    [
      'pay-as-you-go, 2 GPUs',
      { ...base, gpuAmount: 2 },
      { hourlyPrice: 39_800, billingType: 'hourly', duration: 1, gpuAmount: 2 },
    ],
    [
      'daily fallback (no package config)',
      { ...base, billingType: 'daily', duration: 3 },
      { hourlyPrice: 39_800, billingType: 'daily', duration: 3, gpuAmount: 1 },
    ],
    [
      'weekly with a configured price and an 8折 discount',
      { ...base, item: rtx4090, billingType: 'weekly', duration: 2, gpuAmount: 4, packagePrices: a100Config },
      {
        hourlyPrice: 19_800,
        billingType: 'weekly',
        duration: 2,
        gpuAmount: 4,
        packagePrices: a100Config,
        discountRateBp: 8_000,
      },
    ],
    [
      'monthly with a voucher bigger than the order',
      { ...base, billingType: 'monthly', duration: 1, voucherRemaining: 100_000 },
      {
        hourlyPrice: 39_800,
        billingType: 'monthly',
        duration: 1,
        gpuAmount: 1,
        voucherRemaining: 1_000_000_000,
      },
    ],
    [
      'pay-as-you-go with a partly used voucher and a discount',
      { ...base, item: rtx4090, gpuAmount: 3, voucherRemaining: 2.5 },
      {
        hourlyPrice: 19_800,
        billingType: 'hourly',
        duration: 1,
        gpuAmount: 3,
        discountRateBp: 8_000,
        voucherRemaining: 25_000,
      },
    ],
  ];
  for (const [name, input, direct] of cases) {
    it(name, () => {
      const expected = computeOrderPrice(direct);
      expect(orderUnits(input)).toEqual(expected);
      const yuan = orderFigures(input);
      expect(yuan.payableAmount).toBe(unitsToYuan(expected.payableAmount));
      expect(yuan.originalAmount).toBe(unitsToYuan(expected.originalAmount));
      expect(yuan.discountAmount).toBe(unitsToYuan(expected.discountAmount));
      expect(yuan.voucherDeduction).toBe(unitsToYuan(expected.voucherDeduction));
    });
  }

  it('prices an ended discount at the original price', () => {
    const live = orderFigures({ ...base, item: rtx4090 });
    const ended = orderFigures({ ...base, item: rtx4090, discountLive: false });
    expect(live.payableAmount).toBe(1.58);
    expect(ended).toMatchObject({ payableAmount: 1.98, discountAmount: 0 });
    expect(discountRateBp(rtx4090, false)).toBeNull();
    expect(discountRateBp(l40s, true)).toBeNull();
  });

  it('a package duration never applies to pay-as-you-go', () => {
    expect(orderFigures({ ...base, duration: 5 })).toEqual(orderFigures(base));
  });
});

describe('package prices and the server quote', () => {
  it('takes the config of this region on the local platform', () => {
    const configs = [
      {
        gpuType: 'A100 80GB',
        regionId: 2,
        platform: 'local',
        dailyPrice: 150,
        weeklyPrice: 900,
        monthlyPrice: 3300,
      },
      {
        gpuType: 'A100 80GB',
        regionId: 3,
        platform: 'local',
        dailyPrice: 1,
        weeklyPrice: 2,
        monthlyPrice: 3,
      },
    ];
    expect(packagePricesFor(configs, 2)).toEqual(a100Config);
    expect(packagePricesFor(configs, 9)).toBeNull();
    expect(packagePricesFor(undefined, 2)).toBeNull();
  });

  it('matches a quote to the unit and notices any difference', () => {
    const local = orderFigures({ ...base, billingType: 'daily', duration: 2 });
    const quote: CalculatePriceResponse = {
      billingType: 'daily',
      duration: 2,
      gpuAmount: 1,
      ...local,
      discountRate: 1,
      discountEndTime: null,
    };
    expect(quoteMatches(local, quote)).toBe(true);
    expect(quoteMatches(local, { ...quote, payableAmount: local.payableAmount + 0.0001 })).toBe(false);
  });
});

describe('spend rate and runway', () => {
  const f = (original: number, discount: number, payable: number) => ({
    unitPrice: 0,
    discountedUnitPrice: 0,
    originalAmount: original,
    discountAmount: discount,
    voucherDeduction: 0,
    payableAmount: payable,
  });
  it('pay-as-you-go: the hour after discount, voucher or not', () => {
    expect(spendRate(f(4, 0.5, 0), 'hourly', 1)).toBe(3.5);
  });
  it('a package: what it takes spread over its hours', () => {
    expect(spendRate(f(0, 0, 168), 'weekly', 1)).toBe(1);
    expect(orderHours('monthly', 2)).toBe(1440);
  });
  it('runway: balance ÷ rate, down to a tenth; none without balance or spend', () => {
    expect(orderRunway(100, 3)).toBe(33.3);
    expect(orderRunway(-5, 3)).toBe(0);
    expect(orderRunway(null, 3)).toBeNull();
    expect(orderRunway(100, 0)).toBeNull();
  });
});
