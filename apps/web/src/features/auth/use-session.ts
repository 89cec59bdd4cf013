import { useSyncExternalStore } from 'react';
import { getSession, type SessionState, subscribeSession } from '../../lib/session';

/** Both sessions (user and admin), re-rendering on login, logout and 401s. */
export const useSession = (): SessionState => useSyncExternalStore(subscribeSession, getSession);
