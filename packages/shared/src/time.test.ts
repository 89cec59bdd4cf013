import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatDuration,
  formatMmSs,
  formatRemaining,
  formatTime,
  PLATFORM_TIME_ZONE,
  SHANGHAI_OFFSET_MS,
  shanghaiDate,
  shanghaiDayRange,
  shanghaiDayStart,
} from './time.ts';

const S = 1000;
const MIN = 60 * S;

describe('times in Asia/Shanghai', () => {
  it('formats instants in the platform zone whatever the browser zone', () => {
    expect(formatTime('2025-01-31T16:30:05.000Z')).toBe('2025-02-01 00:30:05');
    expect(formatTime('2025-01-31T16:30:05.000Z', 'YYYY-MM-DD HH:mm')).toBe('2025-02-01 00:30');
    expect(formatTime('2025-01-31T16:30:05.000Z', 'MM-DD HH:mm')).toBe('02-01 00:30');
    expect(formatTime('2025-01-31T16:30:05.000Z', 'HH:mm:ss')).toBe('00:30:05');
    expect(formatTime('2025-01-31T16:30:05.000Z', 'HH:mm')).toBe('00:30');
    expect(formatTime('2025-01-31T16:30:05.000Z', 'MM-DD')).toBe('02-01');
    expect(formatTime(null)).toBe('-');
    expect(formatTime('nonsense')).toBe('-');
    expect(formatTime('2026-01-01T00:00:00Z')).toBe('2026-01-01 08:00:00');
    expect(formatTime('2026-06-30T23:30:00+08:00')).toBe('2026-06-30 23:30:00');
    expect(shanghaiDate('2025-01-31T15:59:59Z')).toBe('2025-01-31');
    expect(shanghaiDate('2025-01-31T16:00:00Z')).toBe('2025-02-01');
  });

  it('agrees with the time-zone database (the fixed offset is right)', () => {
    const intl = new Intl.DateTimeFormat('en-GB', {
      timeZone: PLATFORM_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    for (let ms = Date.UTC(2000, 0, 1); ms < Date.UTC(2040, 0, 1); ms += 37 * DAY + 3 * 3_600_000 + 7 * MIN) {
      const p = Object.fromEntries(intl.formatToParts(ms).map((x) => [x.type, x.value]));
      expect(formatTime(ms)).toBe(`${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`);
    }
    expect(SHANGHAI_OFFSET_MS).toBe(8 * 3_600_000);
  });

  it('turns Shanghai days into instants', () => {
    expect(shanghaiDayStart('2026-11-22').toISOString()).toBe('2026-11-21T16:00:00.000Z');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    const r = shanghaiDayRange('2026-11-22', '2026-11-23');
    expect(r.from?.toISOString()).toBe('2026-11-21T16:00:00.000Z');
    expect(r.toExclusive?.toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(shanghaiDayRange()).toEqual({ from: undefined, toExclusive: undefined });
  });
});

const DAY = 24 * 60 * MIN;

describe('durations', () => {
  it('says how long is left', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(formatRemaining('2025-01-02T03:00:00Z', now)).toBe('1天3小时');
    expect(formatRemaining('2025-01-03T00:00:00Z', now)).toBe('2天');
    expect(formatRemaining('2025-01-01T05:12:30Z', now)).toBe('5小时12分钟');
    expect(formatRemaining('2025-01-01T00:00:20Z', now)).toBe('1分钟');
    expect(formatRemaining('2024-12-31T23:00:00Z', now)).toBeNull();
  });

  it('counts down: days, hours or minutes while ticking slowly, mm:ss under 2 minutes', () => {
    const formatCountdown = (ms: number) => formatDuration(ms, 'countdown');
    expect(formatCountdown(29 * 1440 * MIN + 23 * 60 * MIN + 5 * MIN)).toBe('29天23小时');
    expect(formatCountdown(3 * 60 * MIN + 7 * MIN + 12 * S)).toBe('3小时7分');
    expect(formatCountdown(9 * MIN + 59 * S)).toBe('9分钟');
    expect(formatCountdown(2 * MIN + 1)).toBe('2分钟');
    expect(formatCountdown(2 * MIN)).toBe('02:00');
    expect(formatCountdown(61 * S + 1)).toBe('01:02');
    expect(formatCountdown(1)).toBe('00:01');
    expect(formatCountdown(0)).toBe('00:00');
  });

  it('shows seconds as mm:ss', () => {
    expect(formatMmSs(600)).toBe('10:00');
    expect(formatMmSs(599)).toBe('09:59');
    expect(formatMmSs(5)).toBe('00:05');
    expect(formatMmSs(0)).toBe('00:00');
    expect(formatMmSs(-3)).toBe('00:00');
  });
});
