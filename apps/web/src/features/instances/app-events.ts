import { APP_EVENTS, BALANCE_REFRESH_DELAY_MS } from '@gpu/shared/constants';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type AppEventName, emitAppEvent, onAppEvent } from '../../lib/app-events';
import { billingKeys } from '../billing/api/keys';
import { billKeys } from '../bills/api/keys';

export { emitAppEvent };

export const INSTANCE_EVENTS: AppEventName[] = [
  APP_EVENTS.instanceCreated,
  APP_EVENTS.instanceDeleted,
  APP_EVENTS.instanceStarted,
  APP_EVENTS.instanceStopped,
];

/** Calls `handler` on any of `names` while the component is mounted. */
export function useAppEvents(names: readonly AppEventName[], handler: () => void) {
  const latest = useRef(handler);
  latest.current = handler;
  const key = names.join('|');
  useEffect(() => {
    const stops = (key.split('|') as AppEventName[]).map((name) => onAppEvent(name, () => latest.current()));
    return () => {
      for (const stop of stops) stop();
    };
  }, [key]);
}

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
