import { APP_EVENTS } from '@gpu/shared/constants';
import { useEffect, useRef } from 'react';

/**
 * Browser events that other parts of the app react to (SPEC.md §9): balance, voucher and
 * instance created/deleted/started/stopped. Sent on `window` as CustomEvents.
 */
export type AppEventName = (typeof APP_EVENTS)[keyof typeof APP_EVENTS];

export { APP_EVENTS };

/** Tells everyone listening that `name` happened (e.g. the balance changed after a recharge). */
export function emitAppEvent(name: AppEventName, detail?: unknown): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Listens for `name`; answers the function that stops listening. */
export function onAppEvent(name: AppEventName, listener: (detail: unknown) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent).detail);
  window.addEventListener(name, handler);
  return () => window.removeEventListener(name, handler);
}

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
