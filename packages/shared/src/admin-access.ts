/**
 * Who may do what in the back office (issue 29): four roles, permissions per area, and the
 * narrower set of a tenant operator. The server checks every admin route against one table of
 * route → permission (admins module); the web shows only what these rules allow. Zod-free, so the
 * admin layout can import it without bundling zod.
 */

export const ADMIN_ROLES = ['SUPER', 'OPERATIONS', 'FINANCE', 'READONLY'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Roles a tenant operator may have: it runs one storefront, never the platform's money or staff. */
export const TENANT_OPERATOR_ROLES = ['OPERATIONS', 'READONLY'] as const satisfies readonly AdminRole[];

/** SPEC.md §6: the role that opens /admin; every administrator's `roles` list holds it. */
export const ADMIN_ROLE_FLAG = 'ADMIN';

/**
 * What the back office is made of. `overview`: dashboards; `hosts`: hosts and their inventory;
 * `catalogue`: regions, GPU types, SKUs, images; `pricing`: discounts, vouchers, tenant prices;
 * `instances`: every customer's instances; `users`: customers; `finance`: balances, adjustments,
 * recharge orders, bills, exports; `tenants`: tenants and branding; `enquiries`: contact
 * enquiries; `audit`: the audit log; `admins`: administrators and their sessions.
 */
export const ADMIN_AREAS = [
  'overview',
  'hosts',
  'catalogue',
  'pricing',
  'instances',
  'users',
  'finance',
  'tenants',
  'enquiries',
  'audit',
  'admins',
] as const;
export type AdminArea = (typeof ADMIN_AREAS)[number];
export type AdminPermission = `${AdminArea}:read` | `${AdminArea}:write`;

/** Areas a tenant operator works in, always limited to its own tenant's rows. */
export const TENANT_OPERATOR_AREAS = [
  'pricing',
  'instances',
  'users',
  'enquiries',
  'tenants',
] as const satisfies readonly AdminArea[];

const WRITES: Record<AdminRole, readonly AdminArea[]> = {
  SUPER: ADMIN_AREAS,
  OPERATIONS: ['hosts', 'catalogue', 'pricing', 'instances', 'enquiries'],
  FINANCE: ['finance'],
  READONLY: [],
};

/** Everyone but the super administrator reads every area except the administrators themselves. */
const readableBy = (role: AdminRole): readonly AdminArea[] =>
  role === 'SUPER' ? ADMIN_AREAS : ADMIN_AREAS.filter((a) => a !== 'admins');

/**
 * The permissions of an administrator. A tenant operator keeps its role's verbs but only in the
 * tenant areas, and a 运营 tenant operator also changes its own users and branding (that is what
 * running a storefront means).
 */
export function adminPermissions(role: AdminRole, tenantId: number | null): AdminPermission[] {
  if (tenantId !== null) {
    const writes = role === 'OPERATIONS';
    return TENANT_OPERATOR_AREAS.flatMap((a): AdminPermission[] =>
      writes ? [`${a}:read`, `${a}:write`] : [`${a}:read`],
    );
  }
  return [
    ...readableBy(role).map((a): AdminPermission => `${a}:read`),
    ...WRITES[role].map((a): AdminPermission => `${a}:write`),
  ];
}

/** A route's requirement: a permission, any signed-in administrator (`self`), or none (`public`). */
export type RoutePermission = AdminPermission | 'self' | 'public';

export const isAdminRole = (v: unknown): v is AdminRole => ADMIN_ROLES.includes(v as AdminRole);
