import { describe, expect, it } from 'vitest';
import { formatCurrency, formatMoney, formatRemaining, formatTime, shanghaiDate } from './format';

describe('money', () => {
  it('shows two decimals', () => {
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(1.5)).toBe('1.50');
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(12345.678)).toBe('12345.68');
    expect(formatMoney(-12)).toBe('-12.00');
  });
  it('keeps four decimals where two would show 0.00 (per-minute charges)', () => {
    expect(formatMoney(0.0042)).toBe('0.0042');
    expect(formatMoney(0.0001)).toBe('0.0001');
    expect(formatMoney(0.004)).toBe('0.0040');
    expect(formatMoney(-0.0035)).toBe('-0.0035');
    // two decimals already say something: no more digits
    expect(formatMoney(0.005)).toBe('0.01');
    expect(formatMoney(0.0375)).toBe('0.04');
    // below the money unit: zero
    expect(formatMoney(0.00001)).toBe('0.00');
  });
  it('prefixes the currency sign (after the minus)', () => {
    expect(formatCurrency(88)).toBe('¥88.00');
    expect(formatCurrency(-3.2)).toBe('-¥3.20');
    expect(formatCurrency(0.0021)).toBe('¥0.0021');
  });
});

describe('times in Asia/Shanghai', () => {
  it('formats instants in the platform zone whatever the browser zone', () => {
    expect(formatTime('2025-01-31T16:30:05.000Z')).toBe('2025-02-01 00:30:05');
    expect(formatTime('2025-01-31T16:30:05.000Z', 'YYYY-MM-DD HH:mm')).toBe('2025-02-01 00:30');
    expect(formatTime(null)).toBe('-');
    expect(shanghaiDate('2025-01-31T15:59:59Z')).toBe('2025-01-31');
    expect(shanghaiDate('2025-01-31T16:00:00Z')).toBe('2025-02-01');
  });
  it('says how long is left', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(formatRemaining('2025-01-02T03:00:00Z', now)).toBe('1天3小时');
    expect(formatRemaining('2025-01-03T00:00:00Z', now)).toBe('2天');
    expect(formatRemaining('2025-01-01T05:12:30Z', now)).toBe('5小时12分钟');
    expect(formatRemaining('2025-01-01T00:00:20Z', now)).toBe('1分钟');
    expect(formatRemaining('2024-12-31T23:00:00Z', now)).toBeNull();
  });
});
