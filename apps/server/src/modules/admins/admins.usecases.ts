import { randomBytes } from 'node:crypto';
import { type Admin, type AdminLoginResponse, isAdminRole } from '@gpu/shared';
import type { Db } from '../../platform/db/client.ts';
import { createError } from '../../platform/errors.ts';
import { createAuditRepository } from '../audit/index.ts';
import {
  type AuthAdmin,
  adminAccountKey,
  authErrors,
  checkLoginAllowed,
  createAuthRepository,
  hashPassword,
  sha256,
  spendRefreshToken,
  verifyPassword,
} from '../auth/index.ts';
import { toAdmin } from './admin-profile.ts';
import type { AdminsDeps } from './admins.deps.ts';
import { type AdminRow, createAdminsRepository } from './admins.repository.ts';
import { createChallenges, recoveryCodeHash, totpStep } from './second-factor.ts';

/** An administrator's refresh token lives 8 hours unused; a session ends 24 hours after sign-in. */
export const ADMIN_REFRESH_TTL_MS = 8 * 3600_000;
export const ADMIN_SESSION_MAX_AGE_MS = 24 * 3600_000;

export interface Origin {
  ip: string;
  userAgent?: string;
}
export interface AdminSession {
  token: string;
  admin: Admin;
  refresh: { token: string; rememberMe: false; expiresAt: Date };
}

const DUMMY_ADMIN_HASH = hashPassword(randomBytes(16).toString('hex'));
/** Wrong second factors count on their own account key, limited as passwords are. */
export const secondFactorAccountKey = (adminId: number) => `admin-2fa:${adminId}`;

export const adminErrors = {
  badSecondFactor: () => createError({ code: 'admin.bad_second_factor', status: 401, message: '验证码错误' }),
  challengeInvalid: () =>
    createError({ code: 'admin.challenge_invalid', status: 401, message: '验证已过期，请重新登录' }),
};

/**
 * Creates the first admin when there is none: the super administrator (issue 29). Returns the
 * password only when it was generated, so the caller can print it once.
 */
export async function ensureFirstAdmin(
  { db }: { db: Db },
  opts: { username: string; password?: string },
): Promise<{ created: boolean; generatedPassword?: string }> {
  const repo = createAdminsRepository({ db });
  if ((await createAuthRepository({ db }).adminCount()) > 0) return { created: false };
  const generated = opts.password ? undefined : randomBytes(12).toString('base64url');
  const password = opts.password ?? (generated as string);
  const inserted = await repo.insertAdmin({
    username: opts.username,
    passwordHash: await hashPassword(password),
    roles: ['ADMIN'],
    role: 'SUPER',
  });
  if (!inserted) return { created: false };
  return { created: true, generatedPassword: generated };
}

/** The profile of a stored administrator (the 2FA rule read fresh). */
export async function profileOf(deps: { db: Db }, row: AdminRow): Promise<Admin> {
  const repo = createAdminsRepository(deps);
  const role = isAdminRole(row.role) ? row.role : 'READONLY';
  const totpEnabled = row.totpEnabledAt !== null;
  const policy = await repo.totpPolicy();
  return toAdmin(
    {
      id: row.id,
      username: row.username,
      role,
      tenantId: row.tenantId,
      totpEnabled,
      mustChangePassword: row.mustChangePassword,
      mustEnrolTotp: !totpEnabled && policy[role] === true,
    },
    await repo.tenantName(row.tenantId),
  );
}

/** GET /admin/auth/me: who requireAdmin found, with its tenant's name. */
export async function currentAdmin(deps: { db: Db }, admin: AuthAdmin): Promise<Admin> {
  return toAdmin(admin, await createAdminsRepository(deps).tenantName(admin.tenantId));
}

/** A new session (sign-in) or, `family` given, the next refresh token of one (rotation). */
async function startAdminSession(
  deps: AdminsDeps,
  row: AdminRow,
  origin: Origin | null,
  family?: { id: string; startedAt: Date },
): Promise<AdminSession> {
  const repo = createAdminsRepository(deps);
  const now = deps.now();
  const sid = family?.id ?? randomBytes(12).toString('hex');
  if (!family)
    await createAuthRepository(deps).createSession('admin', row.id, sid, now, {
      ip: origin?.ip,
      userAgent: origin?.userAgent?.slice(0, 500),
    });
  await repo.touchSession(sid, now);
  const token = randomBytes(32).toString('base64url');
  const end = (family?.startedAt ?? now).getTime() + ADMIN_SESSION_MAX_AGE_MS;
  const expiresAt = new Date(Math.min(now.getTime() + ADMIN_REFRESH_TTL_MS, end));
  await repo.insertRefreshToken({
    adminId: row.id,
    family: sid,
    tokenHash: sha256(token),
    expiresAt,
    createdAt: now,
  });
  return {
    token: await deps.tokens.sign('admin', row.id, { sid }),
    admin: await profileOf(deps, row),
    refresh: { token, rememberMe: false, expiresAt },
  };
}

async function signedIn(deps: AdminsDeps, row: AdminRow, origin: Origin) {
  const now = deps.now();
  await createAdminsRepository(deps).updateAdmin(row.id, { lastLoginAt: now, lastLoginIp: origin.ip });
  await createAuditRepository(deps).record({
    adminId: row.id,
    action: 'admin.login',
    target: row.username,
    ip: origin.ip,
  });
  return startAdminSession(deps, row, origin);
}

/** Password step. With 2FA on, the answer is a challenge for the code step instead of a session. */
export async function adminLogin(
  deps: AdminsDeps,
  input: { username: string; password: string },
  origin: Origin,
): Promise<AdminSession | Extract<AdminLoginResponse, { mfaRequired: true }>> {
  const auth = createAuthRepository(deps);
  const audit = createAuditRepository(deps);
  const now = deps.now();
  const account = adminAccountKey(input.username);
  await checkLoginAllowed(deps, auth, account, origin.ip);
  const admin = await createAdminsRepository(deps).adminByUsername(input.username);
  const ok = await verifyPassword(admin?.passwordHash ?? (await DUMMY_ADMIN_HASH), input.password);
  if (!admin || !ok || admin.status !== 'ACTIVE') {
    await auth.recordFailure(account, origin.ip, now);
    await audit.record({
      adminId: admin?.id ?? null,
      action: 'admin.login_failed',
      target: input.username,
      ip: origin.ip,
    });
    throw authErrors.badAdminCredentials();
  }
  await auth.clearFailures(account, origin.ip);
  if (admin.totpEnabledAt && admin.totpSecret)
    return { mfaRequired: true, challenge: await createChallenges(deps.secret, deps.now).sign(admin.id) };
  return signedIn(deps, admin, origin);
}

/**
 * Whether `code` is this administrator's second factor now: a TOTP code not used before, or an
 * unspent recovery code (spent by this call). Counts nothing; callers limit the attempts.
 */
export async function checkSecondFactor(deps: AdminsDeps, row: AdminRow, code: string): Promise<boolean> {
  const repo = createAdminsRepository(deps);
  if (!row.totpSecret) return false;
  if (/^\d{6}$/.test(code.trim())) {
    const step = totpStep(deps.box.open(row.totpSecret), row.username, code.trim(), deps.now());
    return step !== null && (await repo.useTotpStep(row.id, step));
  }
  return repo.useRecoveryCode(row.id, recoveryCodeHash(code), deps.now());
}

/** Code step of a 2FA sign-in: wrong codes are limited like passwords (per administrator and address). */
export async function adminVerifySecondFactor(
  deps: AdminsDeps,
  input: { challenge: string; code: string },
  origin: Origin,
): Promise<AdminSession> {
  const id = await createChallenges(deps.secret, deps.now).verify(input.challenge);
  const row = id === null ? undefined : await createAdminsRepository(deps).adminById(id);
  if (row?.status !== 'ACTIVE' || !row.totpEnabledAt) throw adminErrors.challengeInvalid();
  const auth = createAuthRepository(deps);
  const account = secondFactorAccountKey(row.id);
  await checkLoginAllowed(deps, auth, account, origin.ip);
  if (!(await checkSecondFactor(deps, row, input.code))) {
    await auth.recordFailure(account, origin.ip, deps.now());
    await createAuditRepository(deps).record({
      adminId: row.id,
      action: 'admin.login_failed',
      target: row.username,
      detail: { step: '2fa' },
      ip: origin.ip,
    });
    throw adminErrors.badSecondFactor();
  }
  await auth.clearFailures(account, origin.ip);
  return signedIn(deps, row, origin);
}

/** Rotates an administrator's refresh token; a spent one presented again ends its session. */
export async function adminRefresh(deps: AdminsDeps, token: string | undefined): Promise<AdminSession> {
  const repo = createAdminsRepository(deps);
  const auth = createAuthRepository(deps);
  const { row, startedAt } = await spendRefreshToken(
    { ...repo, sessionStartedAt: (family) => auth.sessionStartedAt('admin', family) },
    token,
    deps.now(),
    ADMIN_SESSION_MAX_AGE_MS,
  );
  const admin = await repo.adminById(row.adminId);
  if (admin?.status !== 'ACTIVE') throw authErrors.refreshInvalid();
  return startAdminSession(deps, admin, null, { id: row.family, startedAt });
}

/** Ends this sign-in's session (its access token and refresh cookie) at once, and the cookie's too. */
export async function adminLogout(
  deps: AdminsDeps,
  admin: AuthAdmin,
  refreshToken: string | undefined,
  ip: string,
) {
  const repo = createAdminsRepository(deps);
  const now = deps.now();
  await repo.revokeFamily(admin.sessionId, now);
  if (refreshToken) {
    const row = await repo.refreshTokenByHash(sha256(refreshToken));
    if (row && row.adminId === admin.id) await repo.revokeFamily(row.family, now);
  }
  await createAuditRepository(deps).record({
    adminId: admin.id,
    action: 'admin.logout',
    target: admin.username,
    ip,
  });
}
