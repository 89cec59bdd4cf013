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
/**
 * A signed-in user proving their password again (change password, change phone): one count per
 * user, apart from sign-in's, so guesses here never lock the owner out of signing in.
 */
export const reauthAccountKey = (userId: number) => `reauth:user:${userId}`;

/** Refresh-token lifetimes: "remember me" keeps a session for 30 days, otherwise one day. */
export const REFRESH_TTL_MS = { remember: 30 * 24 * 3600_000, session: 24 * 3600_000 } as const;
/**
 * A refresh family (a session) ends this long after its sign-in however often it rotates: a
 * stolen cookie kept fresh by rotation must not last forever. Password and phone changes start
 * a new family (they prove the password again).
 */
export const SESSION_MAX_AGE_MS = 30 * 24 * 3600_000;
/**
 * Sign-in limits (DESIGN §9, docs/decisions.md "Security hardening"): 5 failures in 15 minutes lock an
 * account for the address that made them only; failures from every address only slow the
 * account down (a growing wait before each check), so no outsider can lock its owner out.
 */
export const LOGIN_FAILURE_LIMIT = {
  max: 5,
  windowMs: 15 * 60_000,
  slowAfter: 10,
  firstDelayMs: 250,
  maxDelayMs: 8_000,
} as const;

/** How long to hold a sign-in to an account with `failures` recent failures from all addresses. */
export function loginDelayMs(failures: number): number {
  const { slowAfter, firstDelayMs, maxDelayMs } = LOGIN_FAILURE_LIMIT;
  if (failures < slowAfter) return 0;
  return Math.min(maxDelayMs, firstDelayMs * 2 ** Math.min(failures - slowAfter, 16));
}
