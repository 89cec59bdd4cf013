import { describe, expect, it } from 'vitest';
import { formatPrice } from './price';

describe('formatPrice', () => {
  it('keeps two decimals and shows up to four when the amount has them', () => {
    expect(formatPrice(1.5)).toBe('1.50');
    expect(formatPrice(15.8)).toBe('15.80');
    expect(formatPrice(1.584)).toBe('1.584');
    expect(formatPrice(1.98 / 60)).toBe('0.033');
    expect(formatPrice(1.98 / 60, 4)).toBe('0.0330');
    expect(formatPrice(15.8 / 60, 4)).toBe('0.2633');
    expect(formatPrice(1299, 0)).toBe('1299');
    expect(formatPrice(0)).toBe('0.00');
  });

  it('groups thousands on request', () => {
    expect(formatPrice(29800, 0, true)).toBe('29,800');
    expect(formatPrice(1234567.5, 2, true)).toBe('1,234,567.50');
    expect(formatPrice(999, 0, true)).toBe('999');
  });
});
