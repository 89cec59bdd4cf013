import { describe, expect, it } from 'vitest';
import { formatRemaining, formatTime, shanghaiDate } from './format';

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
