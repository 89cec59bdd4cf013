/**
 * THE platform time (server, web, exports): every time a user reads, every day a filter names and
 * every "today" is in Asia/Shanghai, whatever the browser's or the server's zone.
 *
 * Asia/Shanghai is UTC+8 all year (no daylight saving since 1991), so a wall clock is the instant
 * plus 8 hours: an export formats ~3 times a row, and Intl costs ~9× more per call (time.test.ts
 * checks the offset against the runtime's time-zone database). docs/decisions.md, "Shared rules".
 */
import { DISCOUNT_FAST_THRESHOLD_MS } from './constants.ts';

export const PLATFORM_TIME_ZONE = 'Asia/Shanghai';
/** Asia/Shanghai's offset from UTC: the one place it is written. */
export const SHANGHAI_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** An instant: ISO 8601 text, epoch milliseconds or a Date. */
export type Instant = string | number | Date;

const toMs = (at: Instant) =>
  typeof at === 'number' ? at : typeof at === 'string' ? Date.parse(at) : at.getTime();

/** How a time shows; every pattern is a slice of "YYYY-MM-DD HH:mm:ss". */
export type TimePattern =
  | 'YYYY-MM-DD HH:mm:ss'
  | 'YYYY-MM-DD HH:mm'
  | 'MM-DD HH:mm'
  | 'MM-DD'
  | 'HH:mm:ss'
  | 'HH:mm'
  | 'YYYY-MM-DD';
const SLICES: Record<TimePattern, readonly [number, number]> = {
  'YYYY-MM-DD HH:mm:ss': [0, 19],
  'YYYY-MM-DD HH:mm': [0, 16],
  'MM-DD HH:mm': [5, 16],
  'MM-DD': [5, 10],
  'HH:mm:ss': [11, 19],
  'HH:mm': [11, 16],
  'YYYY-MM-DD': [0, 10],
};

/** "2025-03-01 14:05:09" (or a shorter `pattern`) in Asia/Shanghai; "-" for no or an unreadable time. */
export function formatTime(
  at: Instant | null | undefined,
  pattern: TimePattern = 'YYYY-MM-DD HH:mm:ss',
): string {
  if (at === null || at === undefined || at === '') return '-';
  const ms = toMs(at);
  if (!Number.isFinite(ms)) return '-';
  const [from, to] = SLICES[pattern];
  return new Date(ms + SHANGHAI_OFFSET_MS).toISOString().slice(from, to).replace('T', ' ');
}

/** "YYYY-MM-DD" of an instant in Asia/Shanghai (the day boundaries of every filter and summary). */
export const shanghaiDate = (at: Instant): string => formatTime(at, 'YYYY-MM-DD');

/** Today's date in Asia/Shanghai. */
export const shanghaiToday = (now: Instant = Date.now()): string => shanghaiDate(now);

/** The instant a Shanghai wall time ("2026-11-22T08:30:00") names: 2026-11-22T00:30:00Z. */
export const shanghaiWallTime = (wall: string): Date => new Date(Date.parse(`${wall}Z`) - SHANGHAI_OFFSET_MS);

/** The instant a Shanghai day ("2026-11-22") starts: 2026-11-21T16:00:00Z. */
export const shanghaiDayStart = (day: string): Date => shanghaiWallTime(`${day}T00:00:00`);

/** The Shanghai day `n` days after `day` (before, for negative `n`). */
export const addDays = (day: string, n: number): string =>
  shanghaiDate(shanghaiDayStart(day).getTime() + n * DAY_MS);

/** Days `from`..`to` (both inclusive, either optional) as instants: `[from, toExclusive)`. */
export const shanghaiDayRange = (from?: string, to?: string): { from?: Date; toExclusive?: Date } => ({
  from: from ? shanghaiDayStart(from) : undefined,
  toExclusive: to ? shanghaiDayStart(addDays(to, 1)) : undefined,
});

const pad = (n: number) => String(n).padStart(2, '0');

/** 600 → "10:00", 59 → "00:59" (whole seconds, never negative). */
export function formatMmSs(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

/**
 * THE duration text. `remaining` (how long a package has left): the two largest units, a zero
 * second unit dropped, at least a minute — "2天", "1天3小时", "5小时12分钟", "1分钟".
 * `countdown` (a discount's end, SPEC.md §9): always two units — "29天23小时", "3小时7分",
 * "9分钟" — and mm:ss (rounded up) once it ticks every second (2 minutes left).
 */
export function formatDuration(ms: number, style: 'remaining' | 'countdown' = 'remaining'): string {
  if (style === 'countdown' && ms <= DISCOUNT_FAST_THRESHOLD_MS)
    return formatMmSs(Math.ceil(Math.max(ms, 0) / 1000));
  const minutes = Math.floor(Math.max(ms, 0) / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const keep = style === 'countdown';
  if (days > 0) return hours > 0 || keep ? `${days}天${hours}小时` : `${days}天`;
  if (hours > 0) return mins > 0 || keep ? `${hours}小时${mins}${keep ? '分' : '分钟'}` : `${hours}小时`;
  return `${keep ? mins : Math.max(mins, 1)}分钟`;
}

/** How long until `until` as `remaining` text; null once it has passed. */
export function formatRemaining(until: Instant, now: Instant = Date.now()): string | null {
  const ms = toMs(until) - toMs(now);
  return ms > 0 ? formatDuration(ms) : null;
}
