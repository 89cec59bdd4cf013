import { type AdminRole, adminPermissions } from '@gpu/shared/admin-access';
import type { Admin } from '@gpu/shared/auth';

/** A signed-in administrator as the server answers it (issue 29): role, permissions, flags. */
export function adminFixture(role: AdminRole = 'SUPER', extra: Partial<Admin> = {}): Admin {
  const tenantId = extra.tenantId ?? null;
  return {
    id: 1,
    username: 'admin',
    roles: ['ADMIN', role],
    role,
    tenantId,
    tenantName: null,
    permissions: adminPermissions(role, tenantId),
    totpEnabled: false,
    mustChangePassword: false,
    mustEnrolTotp: false,
    ...extra,
  };
}
