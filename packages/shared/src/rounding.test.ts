import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FEN, fenOfRatio, floorToFen, formatCurrency, formatYuan, roundToFen } from './money.ts';
import { computeOrderPrice, type PackagePrices, packageUnitPrice, unitPrices } from './pricing.ts';

/** Reference: exact rational rounded half up to fen, by plain decimal reasoning on bigints. */
const refHalfUp = (num: bigint, den: bigint) => {
  const fen = num / (den * 100n);
  const rest = num - fen * den * 100n; // < den × 100
  return Number(2n * rest >= den * 100n ? fen + 1n : fen) * FEN;
};

const billingType = fc.constantFrom('hourly', 'daily', 'weekly', 'monthly' as const);
const packages = fc.option(
  fc.record({
    daily: fc.integer({ min: 0, max: 50_000_000 }),
    weekly: fc.integer({ min: 0, max: 300_000_000 }),
    monthly: fc.integer({ min: 0, max: 1_000_000_000 }),
  }),
  { nil: null },
);

describe('whole-fen rounding (issue 10)', () => {
  it('rounds half up to fen', () => {
    expect(roundToFen(149)).toBe(100);
    expect(roundToFen(150)).toBe(200);
    expect(roundToFen(-150)).toBe(-200);
    expect(fenOfRatio(323_136n)).toBe(323_100); // ¥32.3136 → ¥32.31
    expect(floorToFen(199)).toBe(100);
    expect(floorToFen(-1)).toBe(-100);
  });

  it('charges the issue example as ¥32.31, not ¥32.3136 (1.98/h, daily fallback, 8折)', () => {
    const p = computeOrderPrice({
      hourlyPrice: 19_800,
      billingType: 'daily',
      duration: 1,
      gpuAmount: 1,
      discountRateBp: 8_000,
    });
    expect(p.unitPrice).toBe(403_900); // 40.392 → 40.39
    expect(p.discountedUnitPrice).toBe(323_100);
    expect(p.payableAmount).toBe(323_100);
  });

  it('rounds once, from the exact price: a 1.005 package at 5折 is 0.50, not round(1.01 × 0.5) = 0.51', () => {
    const configured: PackagePrices = { daily: 10_050, weekly: 0, monthly: 0 };
    const p = unitPrices(0, 'daily', configured, 5_000);
    expect(p.unitPrice).toBe(10_100);
    expect(p.discountedUnitPrice).toBe(5_000);
  });

  it('every figure of every order is whole fen, each price within half a fen of its exact value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        billingType,
        packages,
        fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.integer({ min: 0, max: 100_000_000 }), { nil: null }),
        (hourly, type, configured, rateBp, gpus, duration, voucher) => {
          const p = computeOrderPrice({
            hourlyPrice: hourly,
            billingType: type,
            duration,
            gpuAmount: gpus,
            packagePrices: configured,
            discountRateBp: rateBp,
            voucherRemaining: voucher,
          });
          for (const v of Object.values(p)) expect(v % FEN).toBe(0);
          expect(p.payableAmount).toBeGreaterThanOrEqual(0);
          // The reference: the exact price as a fraction, rounded half up once.
          const set = type === 'hourly' ? 0 : (configured?.[type] ?? 0);
          const factor = { hourly: [1n, 1n], daily: [204n, 10n], weekly: [126n, 1n], monthly: [468n, 1n] }[
            type
          ];
          const [fn, fd] =
            set > 0 ? [BigInt(set), 1n] : [BigInt(hourly) * (factor?.[0] ?? 1n), factor?.[1] ?? 1n];
          expect(p.unitPrice).toBe(refHalfUp(fn, fd));
          expect(p.discountedUnitPrice).toBe(
            rateBp == null ? refHalfUp(fn, fd) : refHalfUp(fn * BigInt(rateBp), fd * 10_000n),
          );
          const periods = type === 'hourly' ? 1 : duration;
          expect(p.originalAmount).toBe(p.unitPrice * gpus * periods);
          expect(p.discountAmount + p.voucherDeduction + p.payableAmount).toBe(p.originalAmount);
        },
      ),
    );
  });

  it('the market (packageUnitPrice, unitPrices) and the order (computeOrderPrice) agree', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        billingType,
        packages,
        (hourly, type, configured) => {
          const order = computeOrderPrice({
            hourlyPrice: hourly,
            billingType: type,
            duration: 1,
            gpuAmount: 1,
            packagePrices: configured,
          });
          if (type !== 'hourly') expect(packageUnitPrice(hourly, type, configured)).toBe(order.unitPrice);
          expect(order.discountedUnitPrice).toBe(order.unitPrice);
        },
      ),
    );
  });

  it('shows whatever is charged as the same two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), (fen) => {
        const units = fen * FEN;
        const text = formatYuan(units / 10_000);
        expect(text).toMatch(/^-?\d+\.\d{2}$/);
        expect(Math.round(Number(text) * 100)).toBe(fen);
      }),
    );
  });

  it('formats with grouping, sign, and a tiny per-minute price', () => {
    expect(formatYuan(1234567.5, { group: true })).toBe('1,234,567.50');
    expect(formatYuan(0.004, { tiny: true })).toBe('<0.01');
    expect(formatYuan(0.004)).toBe('0.00');
    expect(formatYuan(0.005, { tiny: true })).toBe('0.01');
    expect(formatCurrency(-3.2)).toBe('-¥3.20');
    expect(formatCurrency(1.584)).toBe('¥1.58');
  });
});
