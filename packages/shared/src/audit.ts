import { z } from 'zod';
import { dateSchema, idSchema } from './input.ts';

/**
 * Every action the audit log records: recordAudit takes only these, and the back office has a
 * Chinese name for each (locales, typed over this list), so no row shows a bare code.
 */
export const AUDIT_ACTIONS = [
  'admin.create',
  'admin.update',
  'admin.login',
  'admin.login_failed',
  'admin.logout',
  'admin.password_change',
  'admin.password_reset',
  'admin.session_revoke',
  'admin.totp_enable',
  'admin.totp_disable',
  'admin.totp_reset',
  'admin.totp_recovery_codes',
  'admin.totp_policy',
  'balance.check',
  'billing.balance_adjustment',
  'contact.enquiry_handled',
  'discount.create',
  'discount.update',
  'discount.status',
  'discount.delete',
  'files.upload',
  'gpu_sku.create',
  'gpu_sku.update',
  'gpu_sku.delete',
  'gpu_sku.sync',
  'gpu_types.status',
  'hosts.create',
  'hosts.update',
  'hosts.delete',
  'hosts.status',
  'hosts.init_ports',
  'hosts.test_connection',
  'images.create',
  'images.update',
  'images.user_quota',
  'instances.admin_power_off',
  'instances.admin_start',
  'instances.admin_terminate',
  'instances.admin_reset',
  'instances.force_stop',
  'market.sync',
  'regions.create',
  'regions.update',
  'tenants.create',
  'tenants.update',
  'tenants.hosts',
  'tenants.price',
  'tenants.price_delete',
  'voucher-config.create',
  'voucher-config.update',
  'voucher-config.toggle',
  'voucher-config.archive',
  'voucher-config.delete',
  'voucher-distribution.execute',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What an audit row is about: its target is `<type>:<id>` (`instance:12`, `gpu-sku:*` for all),
 * or the bare type for a whole-platform action (`balance`, `market`). Admin sign-ins name the
 * username instead. The back office has a Chinese name for each type (locales, typed over this list).
 */
export const AUDIT_TARGET_TYPES = [
  'admin',
  'balance',
  'discount',
  'enquiry',
  'file',
  'gpu-sku',
  'host',
  'image',
  'instance',
  'market',
  'region',
  'tenant',
  'user',
  'voucher-config',
  'voucher-distribution',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
export type AuditTarget = AuditTargetType | `${AuditTargetType}:${string | number}`;

/** Who made an admin write, for the audit log: every admin usecase takes one. */
export interface AdminActor {
  adminId: number;
  ip: string;
}

/** One audit row as the back office shows it. */
export const auditLogSchema = z.object({
  id: z.number().int(),
  adminId: z.number().int().nullable(),
  adminName: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.unknown(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogSchema>;

/** An administrator seen in the audit log, for the viewer's admin filter (name null once deleted). */
export const auditActorSchema = z.object({
  adminId: z.number().int(),
  adminName: z.string().nullable(),
});
export type AuditActor = z.infer<typeof auditActorSchema>;

export const auditListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1),
  size: z.coerce.number().int().min(1, '每页条数无效').max(200, '每页最多200条').default(20),
  adminId: idSchema('管理员编号无效').optional(),
  action: z.string().trim().max(64, '操作名称过长').optional(),
  target: z.string().trim().max(64, '操作对象过长').optional(),
  startDate: dateSchema.optional(),
  endDate: dateSchema.optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
