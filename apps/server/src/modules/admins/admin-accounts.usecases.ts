import {
  type AdminActor,
  type AdminListItem,
  type AdminRole,
  isAdminRole,
  TENANT_OPERATOR_ROLES,
  type TotpPolicy,
} from '@gpu/shared';
import { createError } from '../../platform/errors.ts';
import { recordAudit } from '../audit/index.ts';
import { hashPassword } from '../auth/index.ts';
import type { AdminsDeps } from './admins.deps.ts';
import { type AdminRow, createAdminsRepository } from './admins.repository.ts';
import { clearTotp } from './own-account.usecases.ts';
import { newOneTimePassword } from './second-factor.ts';

export const accountErrors = {
  notFound: () => createError({ code: 'admin.not_found', status: 404, message: '管理员不存在' }),
  taken: () => createError({ code: 'admin.username_taken', status: 409, message: '用户名已存在' }),
  tenantNotFound: () => createError({ code: 'admin.tenant_not_found', status: 422, message: '租户不存在' }),
  tenantRole: () =>
    createError({
      code: 'admin.tenant_operator_role',
      status: 422,
      message: '租户管理员只能是运营或只读角色',
    }),
  self: () => createError({ code: 'admin.self', status: 409, message: '不能修改自己的角色、租户或状态' }),
  // Resetting one's own password or 2FA would sign oneself out, or undo 2FA a super must keep.
  selfReset: () =>
    createError({ code: 'admin.self_reset', status: 409, message: '请在账号安全中修改自己的密码或两步验证' }),
  lastSuper: () =>
    createError({ code: 'admin.last_super', status: 409, message: '至少保留一位启用的超级管理员' }),
};

const roleOf = (row: AdminRow): AdminRole => (isAdminRole(row.role) ? row.role : 'READONLY');

function toListItem(row: AdminRow, tenantName: string | null, activeSessions: number): AdminListItem {
  return {
    id: row.id,
    username: row.username,
    role: roleOf(row),
    tenantId: row.tenantId,
    tenantName,
    status: row.status === 'DISABLED' ? 'DISABLED' : 'ACTIVE',
    totpEnabled: row.totpEnabledAt !== null,
    mustChangePassword: row.mustChangePassword,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    lastLoginIp: row.lastLoginIp,
    activeSessions,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listAdmins(deps: AdminsDeps): Promise<AdminListItem[]> {
  const rows = await createAdminsRepository(deps).list(deps.now());
  return rows.map((r) => toListItem(r.admin, r.tenantName, r.activeSessions));
}

async function itemOf(deps: AdminsDeps, id: number): Promise<AdminListItem> {
  const [row] = await createAdminsRepository(deps).list(deps.now(), id);
  if (!row) throw accountErrors.notFound();
  return toListItem(row.admin, row.tenantName, row.activeSessions);
}

async function checkTenant(deps: AdminsDeps, role: AdminRole, tenantId: number | null) {
  if (tenantId === null) return;
  if (!(TENANT_OPERATOR_ROLES as readonly string[]).includes(role)) throw accountErrors.tenantRole();
  if (!(await createAdminsRepository(deps).tenantExists(tenantId))) throw accountErrors.tenantNotFound();
}

/** A new administrator with a one-time password it must change at first sign-in. */
export async function createAdmin(
  deps: AdminsDeps,
  actor: AdminActor,
  input: { username: string; role: AdminRole; tenantId: number | null },
) {
  await checkTenant(deps, input.role, input.tenantId);
  const password = newOneTimePassword();
  const passwordHash = await hashPassword(password);
  const id = await deps.db.transaction(async (tx) => {
    const row = await createAdminsRepository({ db: tx }).insertAdmin({
      username: input.username,
      passwordHash,
      roles: ['ADMIN'],
      role: input.role,
      tenantId: input.tenantId,
      mustChangePassword: true,
    });
    if (!row) throw accountErrors.taken();
    await recordAudit(tx, actor, 'admin.create', `admin:${row.id}`, {
      username: row.username,
      role: input.role,
      tenantId: input.tenantId,
    });
    return row.id;
  });
  return { admin: await itemOf(deps, id), password };
}

/** Role, tenant or status; disabling ends the administrator's sessions at once. */
export async function updateAdmin(
  deps: AdminsDeps,
  actor: AdminActor,
  id: number,
  patch: { role?: AdminRole; tenantId?: number | null; status?: 'ACTIVE' | 'DISABLED' },
) {
  const repo = createAdminsRepository(deps);
  const row = await repo.adminById(id);
  if (!row) throw accountErrors.notFound();
  if (id === actor.adminId) throw accountErrors.self();
  const role = patch.role ?? roleOf(row);
  const tenantId = patch.tenantId === undefined ? row.tenantId : patch.tenantId;
  const status = patch.status ?? row.status;
  await checkTenant(deps, role, tenantId);
  const stillSuper = role === 'SUPER' && status === 'ACTIVE';
  await deps.db.transaction(async (tx) => {
    const txRepo = createAdminsRepository({ db: tx });
    const supers = await txRepo.lockActiveSupers();
    if (supers.includes(id) && !stillSuper && supers.length === 1) throw accountErrors.lastSuper();
    await txRepo.updateAdmin(id, { role, tenantId, status });
    if (status === 'DISABLED') await txRepo.revokeAllOf(id, deps.now());
    await recordAudit(tx, actor, 'admin.update', `admin:${id}`, {
      before: { role: row.role, tenantId: row.tenantId, status: row.status },
      after: { role, tenantId, status },
    });
  });
  return itemOf(deps, id);
}

/** A new one-time password: the administrator must change it at next sign-in; its sessions end. */
export async function resetAdminPassword(deps: AdminsDeps, actor: AdminActor, id: number) {
  if (id === actor.adminId) throw accountErrors.selfReset();
  const repo = createAdminsRepository(deps);
  const row = await repo.adminById(id);
  if (!row) throw accountErrors.notFound();
  const password = newOneTimePassword();
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const txRepo = createAdminsRepository({ db: tx });
    await txRepo.updateAdmin(id, { passwordHash, mustChangePassword: true });
    await txRepo.revokeAllOf(id, deps.now());
    await recordAudit(tx, actor, 'admin.password_reset', `admin:${id}`);
  });
  return { password };
}

/** Turns someone's 2FA off (a lost phone); the role's rule may ask them to enrol again. */
export async function resetAdminTotp(deps: AdminsDeps, actor: AdminActor, id: number) {
  if (id === actor.adminId) throw accountErrors.selfReset();
  const repo = createAdminsRepository(deps);
  const row = await repo.adminById(id);
  if (!row) throw accountErrors.notFound();
  await deps.db.transaction(async (tx) => {
    await clearTotp(createAdminsRepository({ db: tx }), id, deps.now());
    await recordAudit(tx, actor, 'admin.totp_reset', `admin:${id}`);
  });
}

export async function getTotpPolicy(deps: AdminsDeps): Promise<TotpPolicy> {
  const stored = await createAdminsRepository(deps).totpPolicy();
  return {
    SUPER: stored.SUPER === true,
    OPERATIONS: stored.OPERATIONS === true,
    FINANCE: stored.FINANCE === true,
    READONLY: stored.READONLY === true,
  };
}

export async function setTotpPolicy(
  deps: AdminsDeps,
  actor: AdminActor,
  policy: TotpPolicy,
): Promise<TotpPolicy> {
  const before = await getTotpPolicy(deps);
  await deps.db.transaction(async (tx) => {
    await createAdminsRepository({ db: tx }).setTotpPolicy(policy);
    await recordAudit(tx, actor, 'admin.totp_policy', 'admin', { before, after: policy });
  });
  return getTotpPolicy(deps);
}
