import { describe, expect, it } from 'vitest';
import { formatYuan, unitsToYuan, yuanToUnits } from './money.ts';

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
});
