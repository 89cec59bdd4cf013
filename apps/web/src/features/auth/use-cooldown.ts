import { CODE_RESEND_COOLDOWN_S } from '@gpu/shared/constants';
import { useCallback, useEffect, useState } from 'react';

/** Whole seconds left until `endsAt` (rounded up), 0 when none is running. */
export function remainingSeconds(endsAt: number | null, now: number): number {
  if (endsAt === null) return 0;
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

export interface Cooldown {
  /** Seconds left; 0 when the button may be used again. */
  remaining: number;
  active: boolean;
  /** Starts (or restarts) the countdown; 60 s by default (SPEC.md §9). */
  start: (seconds?: number) => void;
}

/**
 * The resend cooldown of the send-code buttons (SPEC.md §4): counts down from the clock, so a
 * throttled background tab still ends on time; the timer stops when the page is left.
 */
export function useCooldown(): Cooldown {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (endsAt === null) return;
    const id = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= endsAt) setEndsAt(null);
    }, 1000);
    return () => window.clearInterval(id);
  }, [endsAt]);

  const start = useCallback((seconds: number = CODE_RESEND_COOLDOWN_S) => {
    const current = Date.now();
    setNow(current);
    setEndsAt(current + seconds * 1000);
  }, []);

  const remaining = remainingSeconds(endsAt, now);
  return { remaining, active: remaining > 0, start };
}
