import { setTimeout as sleep } from 'node:timers/promises';
import type { Now } from '../../platform/clock.ts';
import { authErrors } from './auth.errors.ts';
import { LOGIN_FAILURE_LIMIT, loginDelayMs } from './auth.models.ts';
import type { AuthRepository } from './auth.repository.ts';

export interface LoginLimitDeps {
  now: Now;
  /** Waits before a sign-in to an account under attack; tests record it instead. */
  delay?: (ms: number) => Promise<void>;
}

/**
 * The one place of the sign-in limits (users and admins): refuses an address that failed
 * too often on this account, and slows down an account that fails from everywhere.
 */
export async function checkLoginAllowed(
  deps: LoginLimitDeps,
  repo: AuthRepository,
  account: string,
  ip: string,
) {
  const since = new Date(deps.now().getTime() - LOGIN_FAILURE_LIMIT.windowMs);
  const failures = await repo.recentFailures(account, ip, since);
  if (failures.fromIp >= LOGIN_FAILURE_LIMIT.max)
    throw authErrors.tooManyFailures(LOGIN_FAILURE_LIMIT.windowMs / 60_000);
  const wait = loginDelayMs(failures.all);
  if (wait > 0) await (deps.delay ?? sleep)(wait);
}

/**
 * The limit on a signed-in user re-entering their password (change password, change phone):
 * 5 failures in 15 minutes stop the account's checks from every address, since only a holder
 * of the account's token can make them (no outsider can lock the owner out); the per-IP limit is
 * the routes' rate limit.
 */
export async function checkReauthAllowed(
  deps: LoginLimitDeps,
  repo: AuthRepository,
  account: string,
  ip: string,
) {
  const since = new Date(deps.now().getTime() - LOGIN_FAILURE_LIMIT.windowMs);
  const failures = await repo.recentFailures(account, ip, since);
  if (failures.all >= LOGIN_FAILURE_LIMIT.max)
    throw authErrors.tooManyPasswordFailures(LOGIN_FAILURE_LIMIT.windowMs / 60_000);
}
