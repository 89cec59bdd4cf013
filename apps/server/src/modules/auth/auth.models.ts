import type { User } from '@gpu/shared';
import type { UserRow } from './auth.repository.ts';

export const toUser = (u: UserRow): User => ({
  id: u.id,
  tenantId: u.tenantId,
  username: u.username,
  phone: u.phone,
  email: u.email,
  certified: u.certified,
  salesName: u.salesName,
  createdAt: u.createdAt.toISOString(),
});

export const userAccountKey = (tenantId: number, phone: string) => `user:${tenantId}:${phone}`;
export const adminAccountKey = (username: string) => `admin:${username}`;

/** Refresh-token lifetimes: "remember me" keeps a session for 30 days, otherwise one day. */
export const REFRESH_TTL_MS = { remember: 30 * 24 * 3600_000, session: 24 * 3600_000 } as const;
/** Per-account sign-in limit (DESIGN §9). */
export const LOGIN_FAILURE_LIMIT = { max: 5, windowMs: 15 * 60_000 } as const;
