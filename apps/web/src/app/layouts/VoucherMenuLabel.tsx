import { APP_EVENTS } from '@gpu/shared/constants';
import { Badge } from 'antd';
import { useEffect, useRef } from 'react';
import { useVoucherStats } from '../../features/vouchers';
import { emitAppEvent } from '../../lib/app-events';

/** How often the console asks whether vouchers arrived (an admin distribution). */
const POLL_MS = 60_000;

/**
 * The console's "My vouchers" entry with a badge of usable vouchers. When that number grows
 * (vouchers were distributed to the user) the voucher event tells the rest of the app.
 */
export function VoucherMenuLabel({ label }: { label: string }) {
  const stats = useVoucherStats(true, POLL_MS);
  const unused = stats.data?.unused ?? 0;
  const last = useRef<number | null>(null);
  useEffect(() => {
    if (stats.data === undefined) return;
    if (last.current !== null && unused > last.current) emitAppEvent(APP_EVENTS.voucher);
    last.current = unused;
  }, [stats.data, unused]);
  return (
    <span>
      {label}
      {unused > 0 ? <Badge count={unused} size="small" offset={[6, -2]} data-testid="voucher-badge" /> : null}
    </span>
  );
}
