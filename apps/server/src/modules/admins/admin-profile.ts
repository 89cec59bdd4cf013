import { ADMIN_ROLE_FLAG, type Admin, type AdminRole, adminPermissions } from '@gpu/shared';

/** An administrator as the back office sees itself: the ADMIN flag and its role, and what it may do. */
export function toAdmin(
  a: {
    id: number;
    username: string;
    role: AdminRole;
    tenantId: number | null;
    totpEnabled: boolean;
    mustChangePassword: boolean;
    mustEnrolTotp: boolean;
  },
  tenantName: string | null,
): Admin {
  return {
    id: a.id,
    username: a.username,
    roles: [ADMIN_ROLE_FLAG, a.role],
    role: a.role,
    tenantId: a.tenantId,
    tenantName,
    permissions: adminPermissions(a.role, a.tenantId),
    totpEnabled: a.totpEnabled,
    mustChangePassword: a.mustChangePassword,
    mustEnrolTotp: a.mustEnrolTotp,
  };
}
