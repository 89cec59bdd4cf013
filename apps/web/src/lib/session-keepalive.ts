import { ApiError } from './api-client';
import { refreshAdminSession, refreshSession } from './refresh-session';
import {
  clearAdminSession,
  clearUserSession,
  getSession,
  setAdminSession,
  subscribeSession,
} from './session';
import { replaceUserSession } from './stored-session';

/** Refresh this long before the access token (user 2 h, admin 1 h) expires. */
export const REFRESH_AHEAD_MS = 5 * 60_000;
/** After a refresh that got no answer, try again this much later (while the token lasts). */
export const REFRESH_RETRY_MS = 30_000;
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The `exp` of a JWT in epoch milliseconds; null when the token is not a readable JWT. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
    const exp = (json as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * When to refresh `token`, in ms from `now`: shortly before it expires (at once when that
 * moment has passed). Null for an expired or unreadable token: the next call's 401 ends that
 * session (SPEC.md §4), a refresh racing it could not win.
 */
export function refreshDelay(token: string, now: number): number | null {
  const expiry = tokenExpiry(token);
  if (expiry === null || expiry <= now) return null;
  return Math.max(0, expiry - REFRESH_AHEAD_MS - now);
}

/**
 * One kept-alive session: the user's or the administrator's. Each has its own token, refresh
 * cookie and refresh call; the timing rules below are shared.
 */
interface Audience {
  name: 'user' | 'admin';
  token: () => string | null;
  /** Refreshes through the cookie and stores the answer when `token` is still the stored one. */
  renew: (token: string, options: { quietUnauthorized?: boolean }) => Promise<void>;
  clear: () => void;
}

const AUDIENCES: Audience[] = [
  {
    name: 'user',
    token: () => getSession().token,
    renew: async (token, options) => {
      const session = await refreshSession(options);
      if (getSession().token === token) replaceUserSession(session.accessToken, session.user);
    },
    clear: clearUserSession,
  },
  {
    name: 'admin',
    token: () => getSession().adminToken,
    renew: async (token, options) => {
      const session = await refreshAdminSession(options);
      if (getSession().adminToken === token) setAdminSession(session.token, session.admin);
    },
    clear: clearAdminSession,
  },
];

let started = false;
const scheduledFor = new Map<Audience['name'], string | null>();
const timers = new Map<Audience['name'], ReturnType<typeof setTimeout>>();

function schedule(audience: Audience, token: string | null, delay: number | null) {
  clearTimeout(timers.get(audience.name));
  timers.delete(audience.name);
  scheduledFor.set(audience.name, token);
  if (token === null || delay === null) return;
  timers.set(
    audience.name,
    setTimeout(() => void refresh(audience, token), Math.min(delay, MAX_TIMEOUT_MS)),
  );
}

/** One refresh at a time across tabs: the refresh token rotates, a parallel reuse would revoke it. */
async function oneAtATime(audience: Audience, run: () => Promise<void>) {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    await navigator.locks.request(`gpu.session-refresh.${audience.name}`, run);
  } else {
    await run();
  }
}

async function resume(audience: Audience, now: number) {
  const token = audience.token();
  const expiry = token ? tokenExpiry(token) : null;
  if (!token || expiry === null || expiry > now) return;
  await oneAtATime(audience, async () => {
    if (audience.token() !== token) return; // another tab got there first
    try {
      await audience.renew(token, { quietUnauthorized: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && audience.token() === token) audience.clear();
    }
  });
}

/**
 * At start-up, before anything renders: a stored access token (user or admin) that expired
 * while the app was closed is exchanged through its refresh cookie, so "remember me" lasts as
 * long as the refresh token (not the access token). When that fails too, the stale session is
 * dropped quietly: a visitor opening a public page is not sent to a sign-in page. A refresh that
 * got no answer leaves the session to the 401 rule.
 */
export async function resumeExpiredSession(now = Date.now()): Promise<void> {
  await Promise.all(AUDIENCES.map((audience) => resume(audience, now)));
}

async function refresh(audience: Audience, token: string) {
  const run = async () => {
    // Another tab (sharing the stored session and the cookie) may have refreshed meanwhile.
    if (audience.token() !== token || refreshDelay(token, Date.now()) === null) return;
    try {
      await audience.renew(token, {});
    } catch (err) {
      // A 401 has already ended the session through the client's 401 rule.
      if (err instanceof ApiError && err.status === 401) return;
      const left = refreshDelay(token, Date.now());
      if (audience.token() === token && left !== null) schedule(audience, token, REFRESH_RETRY_MS);
    }
  };
  await oneAtATime(audience, run);
}

function onSessionChange() {
  for (const audience of AUDIENCES) {
    const token = audience.token();
    if (scheduledFor.has(audience.name) && token === scheduledFor.get(audience.name)) continue;
    schedule(audience, token, token ? refreshDelay(token, Date.now()) : null);
  }
}

/**
 * Keeps the user and the admin session alive while the app is open: each access token is
 * refreshed through its refresh cookie (POST /auth/refresh, /admin/auth/refresh) shortly before
 * it expires, and rescheduled whenever the stored session changes (login, logout, another tab).
 * Idempotent.
 */
export function startSessionKeepAlive() {
  if (started) return;
  started = true;
  subscribeSession(onSessionChange);
  onSessionChange();
}
