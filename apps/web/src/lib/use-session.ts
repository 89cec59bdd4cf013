import { useEffect, useSyncExternalStore } from 'react';
import { getSession, type SessionState, subscribeSession } from './session';
import { startSessionKeepAlive } from './session-keepalive';

/** Both sessions (user and admin), re-rendering on login, logout and 401s. */
export function useSession(): SessionState {
  // The route gate reads the session on every page, so this starts the refresh timer once.
  useEffect(startSessionKeepAlive, []);
  return useSyncExternalStore(subscribeSession, getSession);
}
