import { ApiError } from './api-client';
import { refreshSession } from './refresh-session';
import { clearUserSession, getSession, subscribeSession } from './session';
import { replaceUserSession } from './stored-session';

/** Refresh this long before the access token (2 h) expires. */
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

let started = false;
let scheduledFor: string | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

function schedule(token: string | null, delay: number | null) {
  clearTimeout(timer);
  timer = undefined;
  scheduledFor = token;
  if (token === null || delay === null) return;
  timer = setTimeout(() => void refresh(token), Math.min(delay, MAX_TIMEOUT_MS));
}

/** One refresh at a time across tabs: the refresh token rotates, a parallel reuse would revoke it. */
async function oneAtATime(run: () => Promise<void>) {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    await navigator.locks.request('gpu.session-refresh', run);
  } else {
    await run();
  }
}

/**
 * At start-up, before anything renders: a stored access token that expired while the app was
 * closed is exchanged through the refresh cookie, so "remember me" lasts as long as the refresh
 * token (not the 2 h access token). When that fails too, the stale session is dropped quietly:
 * a visitor opening a public page is not sent to /login. A refresh that got no answer leaves the
 * session to the 401 rule.
 */
export async function resumeExpiredSession(now = Date.now()): Promise<void> {
  const { token } = getSession();
  const expiry = token ? tokenExpiry(token) : null;
  if (!token || expiry === null || expiry > now) return;
  await oneAtATime(async () => {
    if (getSession().token !== token) return; // another tab got there first
    try {
      const session = await refreshSession({ quietUnauthorized: true });
      if (getSession().token === token) replaceUserSession(session.accessToken, session.user);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && getSession().token === token) clearUserSession();
    }
  });
}

async function refresh(token: string) {
  const run = async () => {
    // Another tab (sharing the stored session and the cookie) may have refreshed meanwhile.
    if (getSession().token !== token || refreshDelay(token, Date.now()) === null) return;
    try {
      const session = await refreshSession();
      if (getSession().token === token) replaceUserSession(session.accessToken, session.user);
    } catch (err) {
      // A 401 has already ended the session through the client's 401 rule.
      if (err instanceof ApiError && err.status === 401) return;
      const left = refreshDelay(token, Date.now());
      if (getSession().token === token && left !== null) schedule(token, REFRESH_RETRY_MS);
    }
  };
  await oneAtATime(run);
}

function onSessionChange() {
  const { token } = getSession();
  if (token === scheduledFor) return;
  schedule(token, token ? refreshDelay(token, Date.now()) : null);
}

/**
 * Keeps a user session alive while the app is open: the access token is refreshed through the
 * refresh cookie (POST /auth/refresh) shortly before it expires, and rescheduled whenever the
 * stored session changes (login, logout, another tab). Idempotent.
 */
export function startSessionKeepAlive() {
  if (started) return;
  started = true;
  subscribeSession(onSessionChange);
  onSessionChange();
}
