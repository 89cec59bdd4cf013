import type { User } from '@gpu/shared/auth';
import { STORAGE_KEYS, setUserSession } from './session';

/** Whether the user session was stored with "remember me" (localStorage, not sessionStorage). */
export const isRemembered = () => window.localStorage.getItem(STORAGE_KEYS.token) !== null;

/** Replaces the stored token and user where they are kept now. */
export const replaceUserSession = (token: string, user: User) => setUserSession(token, user, isRemembered());
