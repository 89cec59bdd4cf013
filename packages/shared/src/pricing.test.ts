import { describe, expect, it } from 'vitest';
import {
  computeOrderPrice,
  discountPercentOff,
  discountZhe,
  displayPrices,
  durationError,
  packageUnitPrice,
} from './pricing.ts';

const Y = 10_000; // units per yuan

describe('package unit price', () => {
  it('uses the configured price when there is one', () => {
    expect(packageUnitPrice(2 * Y, 'daily', { daily: 40 * Y, weekly: 0, monthly: 0 })).toBe(40 * Y);
  });
  it('falls back to SPEC factors: 0.85×24, 0.75×168, 0.65×720', () => {
    expect(packageUnitPrice(2 * Y, 'daily')).toBe(Math.round(2 * Y * 0.85 * 24));
    expect(packageUnitPrice(2 * Y, 'weekly', { daily: 1, weekly: 0, monthly: 0 })).toBe(2 * Y * 126);
    expect(packageUnitPrice(2 * Y, 'monthly')).toBe(2 * Y * 468);
  });
});

describe('order price', () => {
  it('hourly: one hour of every GPU, discounted, less the voucher', () => {
    const p = computeOrderPrice({
      hourlyPrice: 19_800,
      billingType: 'hourly',
      duration: 5,
      gpuAmount: 2,
      discountRateBp: 8_000,
      voucherRemaining: 10_000,
    });
    expect(p).toEqual({
      unitPrice: 19_800,
      discountedUnitPrice: 15_800, // 1.584 rounded half up to fen
      originalAmount: 39_600,
      discountAmount: 39_600 - 31_600,
      voucherDeduction: 10_000,
      payableAmount: 21_600,
    });
  });
  it('package: price × GPUs × duration; voucher capped at the order amount', () => {
    const p = computeOrderPrice({
      hourlyPrice: 10_000,
      billingType: 'weekly',
      duration: 2,
      gpuAmount: 3,
      voucherRemaining: 999_999_999,
    });
    expect(p.unitPrice).toBe(1_260_000);
    expect(p.originalAmount).toBe(1_260_000 * 6);
    expect(p.voucherDeduction).toBe(p.originalAmount);
    expect(p.payableAmount).toBe(0);
  });
  it('rounds discounted prices half up to whole fen (3 units at 5折 is 0.00015 yuan: 0 fen)', () => {
    const at = (hourlyPrice: number, discountRateBp: number) =>
      computeOrderPrice({ hourlyPrice, billingType: 'hourly', duration: 1, gpuAmount: 1, discountRateBp })
        .discountedUnitPrice;
    expect(at(3, 5_000)).toBe(0);
    expect(at(19_800, 8_000)).toBe(15_800); // 1.584 → 1.58 (the market showed ¥1.584/时)
    expect(at(31_700, 5_000)).toBe(15_900); // exactly 1.585 → half up → 1.59
    expect(at(31_698, 5_000)).toBe(15_800); // 1.5849 → 1.58
  });
});

describe('display rules', () => {
  it('per minute and per hour', () => {
    expect(displayPrices(1.98)).toEqual({ perMinute: 0.033, perHour: 1.98 });
    const small = displayPrices(0.05);
    expect(small.perMinute).toBe(0.05);
    expect(small.perHour).toBeCloseTo(3, 10);
  });
  it('折 and percent off', () => {
    expect(discountZhe(0.8)).toBe('8折');
    expect(discountZhe(0.85)).toBe('8.5折');
    expect(discountPercentOff(0.8)).toBe('20%');
  });
  it('duration limits', () => {
    expect(durationError('daily', 6)).toBeNull();
    expect(durationError('daily', 7)).toBe('时长须为1-6天');
    expect(durationError('weekly', 0)).toBe('时长须为1-3周');
    expect(durationError('monthly', 4)).toBe('时长须为1-3个月');
    expect(durationError('hourly', 999)).toBeNull();
  });
});
