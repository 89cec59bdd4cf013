import { randomBytes } from 'node:crypto';
import { RECENT_SIGN_INS, type SignIn, type User } from '@gpu/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { SmsDriver } from '../sms/index.ts';
import { authErrors } from './auth.errors.ts';
import { REFRESH_TTL_MS, SESSION_MAX_AGE_MS, toUser, userAccountKey } from './auth.models.ts';
import { createAuthRepository, type SessionOrigin, type UserRow } from './auth.repository.ts';
import { checkLoginAllowed, type LoginLimitDeps } from './login-limits.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { sha256, spendRefreshToken } from './refresh-rotation.ts';
import type { TokenService } from './tokens.ts';

export interface AuthDeps extends LoginLimitDeps {
  db: Db;
  tokens: TokenService;
  sms: SmsDriver;
  now: Now;
  secret: string;
  /** Where an SMS that could not be sent is reported when no answer tells of it. */
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Codes one address may ask for a day (CODE_DAILY_CAP_PER_IP). */
  dailyCapPerIp?: number;
}

export interface Session {
  accessToken: string;
  user: User;
  refresh: { token: string; rememberMe: boolean; expiresAt: Date };
}

/** Verifying against a throwaway hash keeps unknown phones as slow as wrong passwords. */
const DUMMY_HASH = hashPassword(randomBytes(16).toString('hex'));

/** Starts a session, or (`family` given: a rotation) continues it with a new refresh token. */
export async function startSession(
  deps: AuthDeps,
  user: UserRow,
  rememberMe: boolean,
  family?: { id: string; startedAt: Date },
  origin?: SessionOrigin,
): Promise<Session> {
  const repo = createAuthRepository(deps);
  const now = deps.now();
  const token = randomBytes(32).toString('base64url');
  const ttl = rememberMe ? REFRESH_TTL_MS.remember : REFRESH_TTL_MS.session;
  // A rotated token never outlives its family's absolute end.
  const end = (family?.startedAt ?? now).getTime() + SESSION_MAX_AGE_MS;
  const expiresAt = new Date(Math.min(now.getTime() + ttl, end));
  // The refresh family is the session: rotation keeps it, logout and reuse detection end it.
  const sid = family?.id ?? randomBytes(12).toString('hex');
  if (!family) await repo.createSession('user', user.id, sid, now, origin);
  await repo.insertRefreshToken({
    userId: user.id,
    family: sid,
    tokenHash: sha256(token),
    rememberMe,
    expiresAt,
    createdAt: now,
  });
  return {
    accessToken: await deps.tokens.sign('user', user.id, { sid, tenantId: user.tenantId }),
    user: toUser(user),
    refresh: { token, rememberMe, expiresAt },
  };
}

export async function login(
  deps: AuthDeps,
  tenantId: number,
  input: { phone: string; password: string; rememberMe: boolean },
  ip: string,
  userAgent?: string,
): Promise<Session> {
  const repo = createAuthRepository(deps);
  const now = deps.now();
  const account = userAccountKey(tenantId, input.phone);
  await checkLoginAllowed(deps, repo, account, ip);

  const user = await repo.userByPhone(tenantId, input.phone);
  const ok = await verifyPassword(user?.passwordHash ?? (await DUMMY_HASH), input.password);
  if (!user || !ok) {
    await repo.recordFailure(account, ip, now);
    throw authErrors.badCredentials();
  }
  if (user.status !== 'ACTIVE') throw authErrors.disabled();
  await repo.clearFailures(account, ip);
  await repo.updateUser(user.id, { lastLoginAt: now });
  return startSession(deps, user, input.rememberMe, undefined, { ip, userAgent: userAgent?.slice(0, 500) });
}

/** Rotates a refresh token; a spent one presented again revokes its whole family. */
export async function refresh(deps: AuthDeps, tenantId: number, token: string | undefined): Promise<Session> {
  const repo = createAuthRepository(deps);
  const { row, startedAt } = await spendRefreshToken(
    { ...repo, sessionStartedAt: (family) => repo.sessionStartedAt('user', family) },
    token,
    deps.now(),
    SESSION_MAX_AGE_MS,
  );
  const user = await repo.userById(row.userId);
  if (user?.status !== 'ACTIVE' || user.tenantId !== tenantId) throw authErrors.refreshInvalid();
  return startSession(deps, user, row.rememberMe, { id: row.family, startedAt });
}

/**
 * Ends the session of the refresh cookie and the one the access token names (a client that lost
 * or never sent the cookie must not leave its token working); either may be missing or stale.
 */
export async function logout(
  deps: AuthDeps,
  presented: { refreshToken?: string; accessToken?: string | null },
): Promise<void> {
  const repo = createAuthRepository(deps);
  const now = deps.now();
  if (presented.refreshToken) {
    const row = await repo.refreshTokenByHash(sha256(presented.refreshToken));
    if (row) await repo.revokeFamily(row.family, now);
  }
  if (presented.accessToken) {
    const claims = await deps.tokens.verify(presented.accessToken, 'user');
    // A user's session id is its refresh family: both end.
    if (claims) await repo.revokeFamily(claims.sid, now);
  }
}

export async function currentUser(deps: Pick<AuthDeps, 'db'>, userId: number): Promise<User> {
  const user = await createAuthRepository(deps).userById(userId);
  if (!user) throw authErrors.refreshInvalid();
  return toUser(user);
}

/** The account-security screen's recent sign-ins (SPEC.md §2): time, address, device. */
export async function recentSignIns(
  deps: Pick<AuthDeps, 'db'>,
  userId: number,
  currentSid: string | undefined,
): Promise<SignIn[]> {
  const rows = await createAuthRepository(deps).recentSessions(userId, RECENT_SIGN_INS);
  return rows.map((r) => ({
    time: r.createdAt.toISOString(),
    ip: r.ip,
    device: r.userAgent,
    current: r.id === currentSid,
    active: r.revokedAt === null,
  }));
}
