import { DISCOUNT_FAST_THRESHOLD_MS, DISCOUNT_FAST_TICK_MS, DISCOUNT_TICK_MS } from '@gpu/shared/constants';

/**
 * SPEC.md §4/§9: a discount countdown refreshes every 30 s, and every 1 s once under 2 minutes
 * remain. Answers the delay until the next refresh (0 once it has ended). A slow tick never
 * overshoots the 2-minute mark, and a fast tick lands on whole seconds, so the display turns
 * to seconds exactly at 02:00 and each second shows for one second.
 */
export function countdownTickMs(remainingMs: number): number {
  if (remainingMs <= 0) return 0;
  if (remainingMs > DISCOUNT_FAST_THRESHOLD_MS)
    return Math.min(DISCOUNT_TICK_MS, remainingMs - DISCOUNT_FAST_THRESHOLD_MS);
  return remainingMs % DISCOUNT_FAST_TICK_MS || DISCOUNT_FAST_TICK_MS;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * What a countdown shows: days and hours, hours and minutes, or minutes while it ticks every
 * 30 s; mm:ss (rounded up) once it ticks every second.
 */
export function formatCountdown(remainingMs: number): string {
  if (remainingMs <= 0) return '00:00';
  if (remainingMs <= DISCOUNT_FAST_THRESHOLD_MS) {
    const s = Math.ceil(remainingMs / 1000);
    return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
  }
  const minutes = Math.floor(remainingMs / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days}天${hours}小时`;
  if (hours > 0) return `${hours}小时${minutes % 60}分`;
  return `${minutes}分钟`;
}
