import type { Admin, User } from '@gpu/shared/auth';

/**
 * The browser's copy of both sessions (SPEC.md §4): the user's token and user, the admin's
 * token and admin. "Remember me" keeps the user session in localStorage, otherwise it lives in
 * sessionStorage. Components read it through useSession (a useSyncExternalStore hook).
 */
export const STORAGE_KEYS = {
  token: 'gpu.token',
  user: 'gpu.user',
  adminToken: 'gpu.adminToken',
  adminUser: 'gpu.adminUser',
} as const;

export interface SessionState {
  token: string | null;
  user: User | null;
  adminToken: string | null;
  admin: Admin | null;
}

/** A fresh user session as the server answers login, refresh, change-password and change-phone. */
export interface LoginResponse {
  accessToken: string;
  user: User;
}

/**
 * The query-key prefix of every per-user query (balance, vouchers, notices, …): the cache under
 * it is dropped at login and logout, so the next user never sees this one's data.
 */
export const USER_QUERY_KEY = ['user'] as const;

/** The query-key prefix of every admin console query: dropped at admin login. */
export const ADMIN_QUERY_KEY = ['admin'] as const;

const EMPTY: SessionState = { token: null, user: null, adminToken: null, admin: null };

let state: SessionState = EMPTY;
const listeners = new Set<() => void>();
let listeningToOtherTabs = false;

const stores = (): Storage[] => [window.localStorage, window.sessionStorage];

function readKey(key: string): string | null {
  for (const store of stores()) {
    const value = store.getItem(key);
    if (value !== null) return value;
  }
  return null;
}

function removeKeys(...keys: string[]) {
  for (const store of stores()) for (const key of keys) store.removeItem(key);
}

/**
 * A stored user is usable when it parses to an object with a string username (and passes
 * `extra`: an admin stored before roles existed has no permissions, so it is malformed).
 */
function parseStored<T extends { username: string }>(
  raw: string | null,
  extra: (value: T) => boolean = () => true,
): T | null | 'malformed' {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as T).username === 'string' &&
      extra(value as T)
    ) {
      return value as T;
    }
  } catch {
    // fall through
  }
  return 'malformed';
}

const hasPermissions = (admin: Admin) =>
  Array.isArray(admin.permissions) && admin.permissions.every((p) => typeof p === 'string');

function readAll(): SessionState {
  let token = readKey(STORAGE_KEYS.token);
  let user = parseStored<User>(readKey(STORAGE_KEYS.user));
  if (user === 'malformed' || !token || !user) {
    // A malformed stored user (or half a session) clears the session.
    if (user === 'malformed' || token || user) removeKeys(STORAGE_KEYS.token, STORAGE_KEYS.user);
    token = null;
    user = null;
  }
  let adminToken = readKey(STORAGE_KEYS.adminToken);
  let admin = parseStored<Admin>(readKey(STORAGE_KEYS.adminUser), hasPermissions);
  if (admin === 'malformed' || !adminToken || !admin) {
    if (admin === 'malformed' || adminToken || admin)
      removeKeys(STORAGE_KEYS.adminToken, STORAGE_KEYS.adminUser);
    adminToken = null;
    admin = null;
  }
  return { token, user, adminToken, admin };
}

function emit() {
  state = readAll();
  for (const listener of listeners) listener();
}

/** Start-up step of SPEC.md §1: restores both sessions from storage (after the tenant config). */
export function restoreSession(): SessionState {
  if (!listeningToOtherTabs) {
    listeningToOtherTabs = true;
    window.addEventListener('storage', (event) => {
      if (event.key === null || Object.values<string>(STORAGE_KEYS).includes(event.key)) emit();
    });
  }
  emit();
  return state;
}

export const getSession = (): SessionState => state;

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setUserSession(token: string, user: User, remember = true) {
  removeKeys(STORAGE_KEYS.token, STORAGE_KEYS.user);
  const store = remember ? window.localStorage : window.sessionStorage;
  store.setItem(STORAGE_KEYS.token, token);
  store.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  emit();
}

export function clearUserSession() {
  removeKeys(STORAGE_KEYS.token, STORAGE_KEYS.user);
  emit();
}

export function setAdminSession(token: string, admin: Admin) {
  window.localStorage.setItem(STORAGE_KEYS.adminToken, token);
  window.localStorage.setItem(STORAGE_KEYS.adminUser, JSON.stringify(admin));
  emit();
}

export function clearAdminSession() {
  removeKeys(STORAGE_KEYS.adminToken, STORAGE_KEYS.adminUser);
  emit();
}

/** SPEC.md §6: an admin holds role ADMIN (an admin flag or stored roles containing ADMIN). */
export function isAdmin(session: Pick<SessionState, 'adminToken' | 'admin'>): boolean {
  const { adminToken, admin } = session;
  if (!adminToken || !admin) return false;
  const flagged = (admin as Admin & { isAdmin?: unknown }).isAdmin === true;
  return flagged || (Array.isArray(admin.roles) && admin.roles.includes('ADMIN'));
}

export const isLoggedIn = (session: Pick<SessionState, 'token' | 'user'>): boolean =>
  Boolean(session.token && session.user);
