import { APP_EVENTS, BALANCE_REFRESH_DELAY_MS } from '@gpu/shared/constants';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { emitAppEvent, useAppEvents } from '../../lib/app-events';
import { billingKeys, billKeys } from './api/keys';

/** Queries that change when money moves: the balance and the console's figures and bills. */
export const MONEY_QUERY_KEYS = [billingKeys.balance(), billKeys.all] as const;

/**
 * After a balance-affecting event, refresh what shows money once the server has settled
 * (SPEC.md §9: 500 ms later).
 */
let pending: ReturnType<typeof setTimeout> | null = null;
export function refreshMoneySoon(queryClient: QueryClient) {
  if (pending) return; // one refresh covers every event of the same moment
  pending = setTimeout(() => {
    pending = null;
    for (const queryKey of MONEY_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey: [...queryKey] });
  }, BALANCE_REFRESH_DELAY_MS);
}

/** Money moved here: tell the rest of the app and refresh what shows it. */
export function announceMoneyChange(queryClient: QueryClient) {
  emitAppEvent(APP_EVENTS.balance);
  refreshMoneySoon(queryClient);
}

/** Pages that show money refresh it on the balance event (a recharge, a purchase elsewhere). */
export function useBalanceEvents() {
  const queryClient = useQueryClient();
  useAppEvents([APP_EVENTS.balance], () => refreshMoneySoon(queryClient));
}

/**
 * Money just moved where the customer is looking (a paid recharge): the balance is refetched at
 * once (every view of it: page, top bar, account drawer share the query) and the console's
 * figures marked stale. Resolves once the balance holds its new figure, or failed to.
 */
export async function refreshMoneyNow(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: [...billKeys.all] });
  await queryClient.refetchQueries({ queryKey: [...billingKeys.balance()] }).catch(() => undefined);
}
