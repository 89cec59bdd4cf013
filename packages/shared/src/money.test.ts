import { describe, expect, it } from 'vitest';
import { packageEnd } from './constants.ts';
import {
  formatCount,
  formatMoney,
  formatMoneyAxis,
  formatUnits,
  formatYuan,
  hoursLeft,
  unitsToYuan,
  yuanToUnits,
} from './money.ts';

describe('money', () => {
  it('converts yuan to integer units without float drift', () => {
    expect(yuanToUnits(1.88)).toBe(18_800);
    expect(yuanToUnits(0.1 + 0.2)).toBe(3_000);
    expect(yuanToUnits(1.0001)).toBe(10_001);
    expect(yuanToUnits(-2.5)).toBe(-25_000);
    expect(yuanToUnits(100000)).toBe(1_000_000_000);
  });
  it('rounds at the fifth decimal', () => {
    expect(yuanToUnits(0.00005)).toBe(1);
    expect(yuanToUnits(0.00004)).toBe(0);
  });
  it('rejects non-finite amounts', () => {
    expect(() => yuanToUnits(Number.NaN)).toThrow(RangeError);
  });
  it('round-trips units to yuan', () => {
    expect(unitsToYuan(18_800)).toBe(1.88);
    expect(unitsToYuan(123_456n)).toBe(12.3456);
  });
  it('formats two decimals', () => {
    expect(formatYuan(0)).toBe('0.00');
    expect(formatYuan(1.005)).toBe('1.01');
    expect(formatYuan(200)).toBe('200.00');
  });
  it('formats units as it formats the same yuan (the exports format units straight)', () => {
    for (const units of [0, 1, 49, 50, 150, 18_800, 12_345, -25_050, 1_000_000_000]) {
      expect(formatUnits(units), String(units)).toBe(formatYuan(unitsToYuan(units)));
      expect(formatUnits(units, { group: true, tiny: true })).toBe(
        formatYuan(unitsToYuan(units), { group: true, tiny: true }),
      );
    }
    expect(formatUnits(12_345)).toBe('1.23');
    expect(formatUnits(-25_050)).toBe('-2.51');
    expect(formatUnits(49, { tiny: true })).toBe('<0.01');
  });
});

describe('customer money text and runway', () => {
  it('formatMoney: ¥, thousands separators, two decimals', () => {
    expect(formatMoney(1000)).toBe('¥1,000.00');
    expect(formatMoney(1234567.891)).toBe('¥1,234,567.89');
    expect(formatMoney(0)).toBe('¥0.00');
    expect(formatMoney(-3.2)).toBe('-¥3.20');
  });
  it('hoursLeft: balance ÷ rate down to a tenth, 0 when owed, null without spend', () => {
    expect(hoursLeft(100, 3)).toBe(33.3);
    expect(hoursLeft(1200, 3.98)).toBe(301.5);
    expect(hoursLeft(0, 3)).toBe(0);
    expect(hoursLeft(-1, 3)).toBe(0);
    expect(hoursLeft(100, 0)).toBeNull();
  });
  it('packageEnd: day 24 h, week 168 h, month 720 h per period; none for pay-as-you-go', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    expect(packageEnd('daily', 2, from)?.toISOString()).toBe('2026-01-03T00:00:00.000Z');
    expect(packageEnd('weekly', 1, from)?.toISOString()).toBe('2026-01-08T00:00:00.000Z');
    expect(packageEnd('monthly', 1, from)?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(packageEnd('hourly', 1, from)).toBeNull();
  });
});

describe('counts and chart axes', () => {
  it('groups counts as amounts are grouped', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1_400)).toBe('1,400');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(-12_000)).toBe('-12,000');
  });

  it('writes axis money short from ten thousand up', () => {
    expect(formatMoneyAxis(0)).toBe('¥0');
    expect(formatMoneyAxis(800)).toBe('¥800');
    expect(formatMoneyAxis(9_999)).toBe('¥9,999');
    expect(formatMoneyAxis(12_000)).toBe('¥1.2万');
    expect(formatMoneyAxis(-150_000)).toBe('-¥15万');
  });
});
