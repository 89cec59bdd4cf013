import type { Admin, AdminSession } from '@gpu/shared';
import { createError } from '../../platform/errors.ts';
import { createAuditRepository } from '../audit/index.ts';
import {
  type AuthAdmin,
  checkLoginAllowed,
  createAuthRepository,
  hashPassword,
  verifyPassword,
} from '../auth/index.ts';
import type { AdminsDeps } from './admins.deps.ts';
import { type AdminRow, type AdminsRepository, createAdminsRepository } from './admins.repository.ts';
import { adminErrors, checkSecondFactor, profileOf, secondFactorAccountKey } from './admins.usecases.ts';
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpOf, totpStep } from './second-factor.ts';

export const ownAccountErrors = {
  wrongPassword: () => createError({ code: 'admin.wrong_password', status: 422, message: '当前密码错误' }),
  samePassword: () =>
    createError({ code: 'admin.same_password', status: 422, message: '新密码不能与当前密码相同' }),
  totpOn: () => createError({ code: 'admin.totp_enabled', status: 409, message: '两步验证已开启' }),
  totpOff: () => createError({ code: 'admin.totp_disabled', status: 409, message: '尚未开启两步验证' }),
  noEnrolment: () =>
    createError({ code: 'admin.totp_not_enrolling', status: 409, message: '请先获取二维码' }),
  wrongCode: () => createError({ code: 'admin.wrong_code', status: 422, message: '验证码错误' }),
  superKeepsTotp: () =>
    createError({ code: 'admin.totp_required', status: 403, message: '超级管理员开启两步验证后不能关闭' }),
  roleNeedsTotp: () =>
    createError({ code: 'admin.totp_required', status: 403, message: '当前角色必须使用两步验证，不能关闭' }),
  sessionNotFound: () =>
    createError({ code: 'admin.session_not_found', status: 404, message: '会话不存在或已结束' }),
};

/** Re-entering a password or a code while signed in: its own count, limited as sign-in is. */
const reauthKey = (adminId: number) => `reauth:admin:${adminId}`;

async function rowOf(repo: AdminsRepository, admin: AuthAdmin): Promise<AdminRow> {
  const row = await repo.adminById(admin.id);
  if (!row) throw adminErrors.challengeInvalid();
  return row;
}

/** Proves the password again (limited); a wrong one counts and answers 422. */
async function provePassword(deps: AdminsDeps, row: AdminRow, password: string, ip: string) {
  const auth = createAuthRepository(deps);
  await checkLoginAllowed(deps, auth, reauthKey(row.id), ip);
  if (!(await verifyPassword(row.passwordHash, password))) {
    await auth.recordFailure(reauthKey(row.id), ip, deps.now());
    throw ownAccountErrors.wrongPassword();
  }
}

/** Proves a second factor again (TOTP or recovery code; limited like sign-in's code step). */
async function proveCode(deps: AdminsDeps, row: AdminRow, code: string, ip: string) {
  const auth = createAuthRepository(deps);
  await checkLoginAllowed(deps, auth, secondFactorAccountKey(row.id), ip);
  if (!(await checkSecondFactor(deps, row, code))) {
    await auth.recordFailure(secondFactorAccountKey(row.id), ip, deps.now());
    throw ownAccountErrors.wrongCode();
  }
}

/** Changes the password (current one required) and ends every other session of this administrator. */
export async function changeAdminPassword(
  deps: AdminsDeps,
  admin: AuthAdmin,
  input: { currentPassword: string; newPassword: string },
  ip: string,
): Promise<Admin> {
  const repo = createAdminsRepository(deps);
  const row = await rowOf(repo, admin);
  await provePassword(deps, row, input.currentPassword, ip);
  if (input.currentPassword === input.newPassword) throw ownAccountErrors.samePassword();
  const now = deps.now();
  await repo.updateAdmin(row.id, {
    passwordHash: await hashPassword(input.newPassword),
    mustChangePassword: false,
  });
  await repo.revokeAllOf(row.id, now, admin.sessionId);
  await createAuditRepository(deps).record({
    adminId: row.id,
    action: 'admin.password_change',
    target: `admin:${row.id}`,
    ip,
  });
  return profileOf(deps, { ...row, mustChangePassword: false });
}

/** Starts enrolment: a new secret (sealed, not yet on) and its otpauth:// URI for the QR. */
export async function enrolTotp(deps: AdminsDeps, admin: AuthAdmin) {
  const repo = createAdminsRepository(deps);
  const row = await rowOf(repo, admin);
  if (row.totpEnabledAt) throw ownAccountErrors.totpOn();
  const secret = newTotpSecret();
  await repo.updateAdmin(row.id, { totpSecret: deps.box.seal(secret), totpLastStep: null });
  return { uri: totpOf(secret, row.username).toString(), secret };
}

/** Turns 2FA on with the first code from the app, and hands out the recovery codes (shown once). */
export async function confirmTotp(deps: AdminsDeps, admin: AuthAdmin, code: string, ip: string) {
  const repo = createAdminsRepository(deps);
  const row = await rowOf(repo, admin);
  if (row.totpEnabledAt) throw ownAccountErrors.totpOn();
  if (!row.totpSecret) throw ownAccountErrors.noEnrolment();
  const auth = createAuthRepository(deps);
  await checkLoginAllowed(deps, auth, secondFactorAccountKey(row.id), ip);
  const now = deps.now();
  const step = totpStep(deps.box.open(row.totpSecret), row.username, code, now);
  if (step === null || !(await repo.useTotpStep(row.id, step))) {
    await auth.recordFailure(secondFactorAccountKey(row.id), ip, now);
    throw ownAccountErrors.wrongCode();
  }
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(row.id, codes.map(recoveryCodeHash), now);
  await repo.updateAdmin(row.id, { totpEnabledAt: now });
  await createAuditRepository(deps).record({
    adminId: row.id,
    action: 'admin.totp_enable',
    target: `admin:${row.id}`,
    ip,
  });
  return { recoveryCodes: codes };
}

/** A new set of recovery codes (the old ones stop working); needs a current code. */
export async function regenerateRecoveryCodes(deps: AdminsDeps, admin: AuthAdmin, code: string, ip: string) {
  const repo = createAdminsRepository(deps);
  const row = await rowOf(repo, admin);
  if (!row.totpEnabledAt) throw ownAccountErrors.totpOff();
  await proveCode(deps, row, code, ip);
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(row.id, codes.map(recoveryCodeHash), deps.now());
  await createAuditRepository(deps).record({
    adminId: row.id,
    action: 'admin.totp_recovery_codes',
    target: `admin:${row.id}`,
    ip,
  });
  return { recoveryCodes: codes };
}

/** Turns 2FA off with the password, unless the administrator must keep it. */
export async function disableTotp(deps: AdminsDeps, admin: AuthAdmin, password: string, ip: string) {
  const repo = createAdminsRepository(deps);
  const row = await rowOf(repo, admin);
  if (!row.totpEnabledAt) throw ownAccountErrors.totpOff();
  if (admin.role === 'SUPER') throw ownAccountErrors.superKeepsTotp();
  if ((await repo.totpPolicy())[admin.role] === true) throw ownAccountErrors.roleNeedsTotp();
  await provePassword(deps, row, password, ip);
  await clearTotp(repo, row.id, deps.now());
  await createAuditRepository(deps).record({
    adminId: row.id,
    action: 'admin.totp_disable',
    target: `admin:${row.id}`,
    ip,
  });
}

/** 2FA off: secret, recovery codes and the last step gone. */
export async function clearTotp(repo: AdminsRepository, adminId: number, at: Date) {
  await repo.updateAdmin(adminId, { totpSecret: null, totpEnabledAt: null, totpLastStep: null });
  await repo.replaceRecoveryCodes(adminId, [], at);
}

/** An administrator's live sessions (the caller's own marked current). */
export async function sessionsOf(
  deps: AdminsDeps,
  adminId: number,
  currentSid?: string,
): Promise<AdminSession[]> {
  const rows = await createAdminsRepository(deps).liveSessions(adminId, deps.now());
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: (s.lastSeenAt ?? s.createdAt).toISOString(),
    ip: s.ip,
    device: s.userAgent,
    current: s.id === currentSid,
  }));
}

/** Ends one session of `adminId` at once (its access token and refresh cookie stop working). */
export async function endSession(
  deps: AdminsDeps,
  actor: { adminId: number; ip: string },
  adminId: number,
  sid: string,
) {
  const repo = createAdminsRepository(deps);
  const session = await repo.sessionOf(adminId, sid);
  if (!session || session.revokedAt) throw ownAccountErrors.sessionNotFound();
  await repo.revokeFamily(sid, deps.now());
  await createAuditRepository(deps).record({
    adminId: actor.adminId,
    action: 'admin.session_revoke',
    target: `admin:${adminId}`,
    detail: { session: sid.slice(0, 8) },
    ip: actor.ip,
  });
}
