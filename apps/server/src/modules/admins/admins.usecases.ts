import { randomBytes } from 'node:crypto';
import type { Admin } from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { createAuditRepository } from '../audit/index.ts';
import {
  type AuthAdmin,
  adminAccountKey,
  authErrors,
  checkLoginAllowed,
  createAuthRepository,
  hashPassword,
  type LoginLimitDeps,
  type TokenService,
  verifyPassword,
} from '../auth/index.ts';

/**
 * Creates the first admin when there is none. Returns the password only when it was generated,
 * so the caller can print it once.
 */
export async function ensureFirstAdmin(
  { db }: { db: Db },
  opts: { username: string; password?: string },
): Promise<{ created: boolean; generatedPassword?: string }> {
  const repo = createAuthRepository({ db });
  if ((await repo.adminCount()) > 0) return { created: false };
  const generated = opts.password ? undefined : randomBytes(12).toString('base64url');
  const password = opts.password ?? (generated as string);
  const inserted = await repo.insertAdmin({
    username: opts.username,
    passwordHash: await hashPassword(password),
    roles: ['ADMIN'],
  });
  if (!inserted) return { created: false };
  return { created: true, generatedPassword: generated };
}

const DUMMY_ADMIN_HASH = hashPassword(randomBytes(16).toString('hex'));

export async function adminLogin(
  deps: LoginLimitDeps & { db: Db; tokens: TokenService },
  input: { username: string; password: string },
  ip: string,
): Promise<{ token: string; admin: Admin }> {
  const repo = createAuthRepository(deps);
  const audit = createAuditRepository(deps);
  const now = deps.now();
  const account = adminAccountKey(input.username);
  await checkLoginAllowed(deps, repo, account, ip);
  const admin = await repo.adminByUsername(input.username);
  const ok = await verifyPassword(admin?.passwordHash ?? (await DUMMY_ADMIN_HASH), input.password);
  if (!admin || !ok || admin.status !== 'ACTIVE') {
    await repo.recordFailure(account, ip, now);
    await audit.record({
      adminId: admin?.id ?? null,
      action: 'admin.login_failed',
      target: input.username,
      ip,
    });
    throw authErrors.badAdminCredentials();
  }
  await repo.clearFailures(account, ip);
  await repo.updateAdmin(admin.id, { lastLoginAt: now });
  await audit.record({ adminId: admin.id, action: 'admin.login', target: admin.username, ip });
  const sid = randomBytes(12).toString('hex');
  await repo.createSession('admin', admin.id, sid, now);
  return {
    token: await deps.tokens.sign('admin', admin.id, { sid }),
    admin: { id: admin.id, username: admin.username, roles: admin.roles },
  };
}

/** Ends this sign-in's session: its token stops working at once (admins have no refresh token). */
export async function adminLogout(deps: { db: Db; now: Now }, admin: AuthAdmin, ip: string) {
  const repo = createAuthRepository(deps);
  const audit = createAuditRepository(deps);
  await repo.revokeSession('admin', admin.sessionId, deps.now());
  await audit.record({ adminId: admin.id, action: 'admin.logout', target: admin.username, ip });
}
