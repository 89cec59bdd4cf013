import { formatDuration } from '@gpu/shared/time';
import { useEffect, useRef, useState } from 'react';
import { t } from '../locales/zh-CN';
import { countdownTickMs } from './countdown';

export interface CountdownProps {
  /** When it ends: an ISO time or epoch milliseconds. */
  endTime: string | number;
  /** Called once when the end passes (also right away when it already has). */
  onExpire?: () => void;
  className?: string;
}

/**
 * Time left until `endTime`, refreshed on the SPEC.md §9 tick (every 30 s, every 1 s under
 * 2 minutes; see countdownTickMs).
 */
export function Countdown({ endTime, onExpire, className }: CountdownProps) {
  const end = typeof endTime === 'number' ? endTime : Date.parse(endTime);
  const [now, setNow] = useState(() => Date.now());
  const remaining = end - now;
  const expired = !(remaining > 0); // NaN (an unreadable time) counts as ended

  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  });

  useEffect(() => {
    if (expired) return;
    const timer = setTimeout(() => setNow(Date.now()), countdownTickMs(remaining));
    return () => clearTimeout(timer);
  }, [remaining, expired]);

  useEffect(() => {
    if (expired) onExpireRef.current?.();
  }, [expired]);

  return (
    <span className={className} role="timer" data-testid="countdown">
      {expired ? t.countdown.ended : formatDuration(remaining, 'countdown')}
    </span>
  );
}
