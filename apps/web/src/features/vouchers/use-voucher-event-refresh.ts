import { APP_EVENTS, BALANCE_REFRESH_DELAY_MS } from '@gpu/shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onAppEvent } from '../../lib/app-events';
import { voucherKeys } from './api/keys';

/**
 * SPEC.md §9: voucher figures (account menu total, /console/vouchers, the subscribe list) refresh
 * 500 ms after a voucher event; events within the delay refresh once.
 */
export function useVoucherEventRefresh(enabled = true) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onAppEvent(APP_EVENTS.voucher, () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: voucherKeys.all() });
      }, BALANCE_REFRESH_DELAY_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [enabled, queryClient]);
}
