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
