import { createHash, randomBytes } from 'node:crypto';
import {
  type ChangePhoneRequest,
  type CodeType,
  RECENT_SIGN_INS,
  type RegisterRequest,
  type SignIn,
  type User,
} from '@gpu/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { SmsDriver } from '../sms/index.ts';
import { authErrors } from './auth.errors.ts';
import {
  REFRESH_TTL_MS,
  reauthAccountKey,
  SESSION_MAX_AGE_MS,
  toUser,
  userAccountKey,
} from './auth.models.ts';
import { createAuthRepository, type SessionOrigin, type UserRow } from './auth.repository.ts';
import { checkLoginAllowed, checkReauthAllowed, type LoginLimitDeps } from './login-limits.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { TokenService } from './tokens.ts';
import { consumeVerificationCode, sendVerificationCode } from './verification-codes.ts';

export interface AuthDeps extends LoginLimitDeps {
  db: Db;
  tokens: TokenService;
  sms: SmsDriver;
  now: Now;
  secret: string;
  /** Where an SMS that could not be sent is reported when no answer tells of it. */
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

export interface Session {
  accessToken: string;
  user: User;
  refresh: { token: string; rememberMe: boolean; expiresAt: Date };
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
/** Verifying against a throwaway hash keeps unknown phones as slow as wrong passwords. */
const DUMMY_HASH = hashPassword(randomBytes(16).toString('hex'));

/** Starts a session, or (`family` given: a rotation) continues it with a new refresh token. */
async function startSession(
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

export async function register(deps: AuthDeps, tenantId: number, input: RegisterRequest): Promise<User> {
  const repo = createAuthRepository(deps);
  if (await repo.isTaken(tenantId, 'phone', input.phone)) throw authErrors.phoneTaken();
  await consumeVerificationCode(
    deps,
    { tenantId, phone: input.phone, purpose: 'REGISTER' },
    input.verificationCode,
  );
  const passwordHash = await hashPassword(input.password);
  const user = await deps.db.transaction((tx) =>
    createAuthRepository({ db: tx }).createUser({
      tenantId,
      phone: input.phone,
      passwordHash,
      salesName: input.salesName,
      salesPhone: input.salesPhone,
    }),
  );
  if (!user) throw authErrors.phoneTaken();
  return toUser(user);
}

/**
 * Sends a code. REGISTER and CHANGE_PHONE need a free phone (the screens check it first).
 * RESET_PASSWORD answers alike for unknown phones (DESIGN §9) in status, words and time: they
 * get a decoy (the same checks and row, nothing sent), registered ones a code sent in the
 * background (the provider's latency or failure would tell them apart).
 */
export async function sendCode(
  deps: AuthDeps,
  tenantId: number,
  input: { phone: string; codeType: CodeType },
  ip: string,
): Promise<string | null> {
  const repo = createAuthRepository(deps);
  const taken = await repo.isTaken(tenantId, 'phone', input.phone);
  if (input.codeType !== 'RESET_PASSWORD' && taken) throw authErrors.phoneTaken();
  const target = { tenantId, phone: input.phone, purpose: input.codeType };
  if (input.codeType !== 'RESET_PASSWORD') return sendVerificationCode(deps, target, ip);
  return sendVerificationCode(deps, target, ip, taken ? 'background' : 'decoy');
}

export async function resetPassword(
  deps: AuthDeps,
  tenantId: number,
  input: { phone: string; code: string; newPassword: string },
): Promise<void> {
  const repo = createAuthRepository(deps);
  // Unknown phones got a decoy, which no code matches: they fail exactly like a wrong code.
  await consumeVerificationCode(
    deps,
    { tenantId, phone: input.phone, purpose: 'RESET_PASSWORD' },
    input.code,
  );
  const user = await repo.userByPhone(tenantId, input.phone);
  if (!user) throw authErrors.codeExpired();
  const now = deps.now();
  await repo.updateUser(user.id, {
    passwordHash: await hashPassword(input.newPassword),
    tokensValidAfter: now,
  });
  await repo.revokeAllForUser(user.id, now);
  await repo.clearFailures(userAccountKey(tenantId, input.phone));
}

/**
 * A signed-in user's current password, checked under the re-authentication limit (per account,
 * in login_failures): a wrong one counts, a right one clears the count.
 */
async function checkCurrentPassword(
  deps: AuthDeps,
  repo: ReturnType<typeof createAuthRepository>,
  user: UserRow,
  password: string,
  ip: string,
  wrong: () => Error,
) {
  const account = reauthAccountKey(user.id);
  await checkReauthAllowed(deps, repo, account, ip);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await repo.recordFailure(account, ip, deps.now());
    throw wrong();
  }
  await repo.clearFailures(account);
}

export async function changePassword(
  deps: AuthDeps,
  userId: number,
  input: { oldPassword: string; newPassword: string },
  origin: SessionOrigin & { ip: string },
): Promise<Session> {
  const repo = createAuthRepository(deps);
  const user = await repo.userById(userId);
  if (!user) throw authErrors.refreshInvalid();
  await checkCurrentPassword(deps, repo, user, input.oldPassword, origin.ip, authErrors.oldPasswordWrong);
  const now = deps.now();
  await repo.updateUser(user.id, {
    passwordHash: await hashPassword(input.newPassword),
    tokensValidAfter: now,
  });
  await repo.revokeAllForUser(user.id, now);
  // Every other session ends; this one continues with fresh tokens.
  return startSession(deps, user, false, undefined, origin);
}

/**
 * Moves the account to a new phone: the current password (under the re-authentication limit) and
 * the code sent to the new phone prove both ends. Like a password change, every session ends and
 * this one continues with fresh tokens; the old phone gets a notice (no code).
 */
export async function changePhone(
  deps: AuthDeps,
  userId: number,
  input: ChangePhoneRequest,
  origin: SessionOrigin & { ip: string },
): Promise<Session> {
  const repo = createAuthRepository(deps);
  const user = await repo.userById(userId);
  if (!user) throw authErrors.refreshInvalid();
  if (user.phone === input.newPhone) throw authErrors.samePhone();
  if (await repo.isTaken(user.tenantId, 'phone', input.newPhone)) throw authErrors.phoneTaken();
  // The password first: a wrong one leaves the code for the right one.
  await checkCurrentPassword(deps, repo, user, input.password, origin.ip, authErrors.currentPasswordWrong);
  await consumeVerificationCode(
    deps,
    { tenantId: user.tenantId, phone: input.newPhone, purpose: 'CHANGE_PHONE' },
    input.code,
  );
  // A username that is the old phone (the default at registration) follows it: left behind, it
  // would block anyone registering the freed number later (usernames are unique per tenant).
  const followsPhone = user.username === user.phone;
  const username =
    followsPhone && !(await repo.isTaken(user.tenantId, 'username', input.newPhone))
      ? input.newPhone
      : user.username;
  const now = deps.now();
  try {
    await repo.updateUser(user.id, { phone: input.newPhone, username, tokensValidAfter: now });
  } catch {
    throw authErrors.phoneTaken();
  }
  await repo.revokeAllForUser(user.id, now);
  try {
    await deps.sms.sendNotice({
      phone: user.phone,
      notice: { kind: 'PHONE_CHANGED', newPhone: input.newPhone },
    });
  } catch (err) {
    deps.log?.warn({ err, userId: user.id }, 'phone-changed notice to the old phone not sent');
  }
  return startSession(deps, { ...user, phone: input.newPhone, username }, false, undefined, origin);
}

/** Rotates a refresh token; a spent one presented again revokes its whole family. */
export async function refresh(deps: AuthDeps, tenantId: number, token: string | undefined): Promise<Session> {
  if (!token) throw authErrors.refreshInvalid();
  const repo = createAuthRepository(deps);
  const now = deps.now();
  const row = await repo.refreshTokenByHash(sha256(token));
  if (!row || row.revokedAt) throw authErrors.refreshInvalid();
  if (row.usedAt || !(await repo.markRefreshUsed(row.id, now))) {
    await repo.revokeFamily(row.family, now);
    throw authErrors.refreshInvalid();
  }
  if (row.expiresAt.getTime() <= now.getTime()) throw authErrors.refreshInvalid();
  const startedAt = await repo.sessionStartedAt('user', row.family);
  if (!startedAt || now.getTime() >= startedAt.getTime() + SESSION_MAX_AGE_MS) {
    await repo.revokeFamily(row.family, now);
    throw authErrors.refreshInvalid();
  }
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

export async function isAvailable(
  deps: Pick<AuthDeps, 'db'>,
  tenantId: number,
  field: 'phone' | 'username' | 'email',
  value: string,
) {
  return !(await createAuthRepository(deps).isTaken(tenantId, field, value));
}
