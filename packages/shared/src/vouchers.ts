import { z } from 'zod';
import { VOUCHER_LIST_SIZE } from './constants.ts';
import { dateOrTimeSchema, idSchema, textSchema } from './input.ts';
import { floorToFen } from './money.ts';

/**
 * Vouchers (SPEC.md §3–§5, DESIGN §5): the rules both sides use. Amounts are integer units.
 * A voucher's status is never stored: it follows from what is left and when it expires.
 */
export const VOUCHER_STATUSES = ['UNUSED', 'USED', 'EXPIRED'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

const DAY_MS = 86_400_000;

export interface VoucherFacts {
  remaining: number;
  expiresAt: Date;
  regionId: number | null;
  gpuModel: string | null;
  minOrderAmount: number;
}

/** USED once nothing is left; else EXPIRED once its expiry passed (SPEC.md §4); else UNUSED. */
export function voucherStatus(v: Pick<VoucherFacts, 'remaining' | 'expiresAt'>, now: Date): VoucherStatus {
  if (v.remaining <= 0) return 'USED';
  return v.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'UNUSED';
}

/** "Expiring": usable and expiring within `days` (7 on cards and the selector, 3 on subscribe). */
export const isVoucherExpiring = (
  v: Pick<VoucherFacts, 'remaining' | 'expiresAt'>,
  now: Date,
  days: number,
) => voucherStatus(v, now) === 'UNUSED' && v.expiresAt.getTime() - now.getTime() <= days * DAY_MS;

/** SPEC.md §5: deduction = min(remaining, order amount), whole fen so what is paid is whole fen too. */
export const voucherDeduction = (remaining: number | null | undefined, orderAmount: number) =>
  floorToFen(Math.max(0, Math.min(remaining ?? 0, orderAmount)));

export interface VoucherOrder {
  regionId: number;
  gpuType: string;
  /** The order amount after discount, before the voucher (packages: × duration). */
  amount: number;
}

/** Why this voucher cannot pay for this order, in words a user can act on; null when it can. */
export function voucherRefusal(v: VoucherFacts, order: VoucherOrder, now: Date): string | null {
  const status = voucherStatus(v, now);
  if (status === 'USED') return '代金券已用完';
  if (status === 'EXPIRED') return '代金券已过期';
  if (v.regionId !== null && v.regionId !== order.regionId) return '代金券不适用于该地区';
  if (v.gpuModel && v.gpuModel.toLowerCase() !== order.gpuType.toLowerCase())
    return `代金券仅适用于 ${v.gpuModel}`;
  if (order.amount < v.minOrderAmount) return '订单金额未达到代金券使用门槛';
  return null;
}

/** When a voucher issued now from a config expires: N days from now, capped by the config's end date. */
export function voucherExpiry(
  cfg: { validDays: number | null; validUntil: Date | null },
  now: Date,
): Date | null {
  const byDays = cfg.validDays ? new Date(now.getTime() + cfg.validDays * DAY_MS) : null;
  if (byDays && cfg.validUntil) return new Date(Math.min(byDays.getTime(), cfg.validUntil.getTime()));
  return byDays ?? cfg.validUntil;
}

// ---- HTTP shapes (yuan at the edge) ----

export const voucherSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  voucherName: z.string(),
  voucherCode: z.string(),
  description: z.string(),
  status: z.enum(VOUCHER_STATUSES),
  amount: z.number(),
  remainingAmount: z.number(),
  usedAmount: z.number(),
  minOrderAmount: z.number(),
  expiresAt: z.string(),
  regionId: z.number().int().nullable(),
  regionName: z.string(),
  gpuType: z.string(),
  createdAt: z.string(),
});
export type VoucherView = z.infer<typeof voucherSchema>;

export const voucherStatsSchema = z.object({
  /** What the usable vouchers still hold, yuan. */
  totalValue: z.number(),
  unused: z.number().int(),
  used: z.number().int(),
  expired: z.number().int(),
  /** Usable and expiring within 7 days. */
  expiring: z.number().int(),
});
export type VoucherStats = z.infer<typeof voucherStatsSchema>;

const statusFilter = z.enum(VOUCHER_STATUSES, { message: '状态只能是 UNUSED、USED 或 EXPIRED' }).optional();
const gpuTypeSchema = textSchema().trim().max(64, 'GPU型号过长');

export const voucherListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1),
  size: z.coerce.number().int().min(1, '每页条数无效').max(VOUCHER_LIST_SIZE, '每页最多100条').default(20),
  status: statusFilter,
});
export type VoucherListQuery = z.infer<typeof voucherListQuerySchema>;

/** GET /user/vouchers/available (SPEC.md §7): page 0-based, size up to 100. */
export const voucherAvailableQuerySchema = z.object({
  status: statusFilter,
  page: z.coerce.number().int().min(0, '页码无效').max(100_000, '页码无效').default(0),
  size: z.coerce.number().int().min(1, '每页条数无效').max(VOUCHER_LIST_SIZE, '每页最多100条').default(100),
  gpuType: gpuTypeSchema.optional(),
  regionId: idSchema('地区编号无效').optional(),
  minAmount: z.coerce.number({ message: '金额必须是数字' }).min(0, '金额不能为负').max(10_000_000).optional(),
});
export type VoucherAvailableQuery = z.infer<typeof voucherAvailableQuerySchema>;

/** POST /user/vouchers/validate and /use: a code plus the order it would pay for. */
export const voucherValidateSchema = z.object({
  voucherCode: textSchema('请输入代金券码').trim().min(1, '请输入代金券码').max(64, '代金券码无效'),
  regionId: idSchema('地区编号无效'),
  gpuType: gpuTypeSchema.min(1, '请提供GPU型号'),
  /** The order amount after discount, yuan. */
  orderAmount: z.coerce.number({ message: '订单金额必须是数字' }).min(0, '订单金额不能为负').max(10_000_000),
});
export type VoucherValidateInput = z.infer<typeof voucherValidateSchema>;

export const voucherValidationSchema = z.object({
  valid: z.boolean(),
  voucherId: z.number().int().nullable(),
  deduction: z.number(),
  reason: z.string().nullable(),
});
export type VoucherValidation = z.infer<typeof voucherValidationSchema>;

// ---- Admin: voucher configs ----

const yuanAmount = (what: string, min: number) =>
  z
    .number({ message: `${what}必须是数字` })
    .min(min, `${what}不能小于${min}`)
    .max(1_000_000, `${what}不能超过1000000`)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, `${what}最多两位小数`);

const configFields = {
  name: textSchema('请输入名称').trim().min(1, '请输入名称').max(64, '名称最多64个字符'),
  description: textSchema().trim().max(200, '描述最多200个字符').default(''),
  faceAmount: yuanAmount('面额', 0.01),
  validDays: z.number({ message: '有效天数必须是数字' }).int('有效天数必须是整数').min(1).max(3650).nullish(),
  validUntil: dateOrTimeSchema.nullish(),
  regionId: idSchema('地区编号无效').nullish(),
  gpuType: gpuTypeSchema.nullish(),
  minOrderAmount: yuanAmount('最低订单金额', 0).default(0),
  perUserLimit: z
    .number({ message: '每人限领必须是数字' })
    .int('每人限领必须是整数')
    .min(1, '每人限领至少1张')
    .max(100, '每人限领最多100张')
    .default(1),
  enabled: z.boolean().default(true),
};

export const voucherConfigInputSchema = z.object(configFields).superRefine((v, ctx) => {
  if (!v.validDays && !v.validUntil)
    ctx.addIssue({ code: 'custom', message: '请填写有效天数或截止日期', path: ['validDays'] });
});
export type VoucherConfigInput = z.infer<typeof voucherConfigInputSchema>;

export const voucherConfigSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  faceAmount: z.number(),
  validDays: z.number().int().nullable(),
  validUntil: z.string().nullable(),
  regionId: z.number().int().nullable(),
  regionName: z.string().nullable(),
  gpuType: z.string().nullable(),
  minOrderAmount: z.number(),
  perUserLimit: z.number().int(),
  enabled: z.boolean(),
  archived: z.boolean(),
  issuedCount: z.number().int(),
  createdAt: z.string(),
});
export type VoucherConfigView = z.infer<typeof voucherConfigSchema>;

export const voucherConfigListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1),
  size: z.coerce.number().int().min(1, '每页条数无效').max(200, '每页最多200条').default(20),
  keyword: textSchema().trim().max(64, '关键词过长').optional(),
  enabled: z.enum(['true', 'false'], { message: '启用状态无效' }).optional(),
});
export type VoucherConfigListQuery = z.infer<typeof voucherConfigListQuerySchema>;

export * from './distribution.ts';
