import { APP_EVENTS, BALANCE_REFRESH_DELAY_MS } from '@gpu/shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onAppEvent } from '../../lib/app-events';
import { billingKeys } from './api/keys';

/**
 * SPEC.md §9: the navbar balance (and the account menu with its recharge button) refreshes
 * 500 ms after a balance event. Events within the delay refresh once. Invalidating also marks
 * the cached balance stale while the menu is closed, so it reloads when it opens.
 */
export function useBalanceEventRefresh(enabled = true) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onAppEvent(APP_EVENTS.balance, () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: billingKeys.balance() });
      }, BALANCE_REFRESH_DELAY_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [enabled, queryClient]);
}
