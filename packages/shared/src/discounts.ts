import { z } from 'zod';
import { dateOrTimeSchema, idSchema, textSchema } from './input.ts';
import { statsComputedAt } from './stats.ts';

/**
 * Admin discount rules (SPEC.md §7 admin Discounts). `discountRate` is the share paid, 0.01–0.99
 * (0.8 = 8折). Overlaps: the lowest active matching rate wins (DESIGN §5; discounts.models.ts).
 */
const fields = {
  name: textSchema('请输入活动名称').trim().min(1, '请输入活动名称').max(64, '活动名称最多64个字符'),
  description: textSchema().trim().max(200, '描述最多200个字符').default(''),
  discountRate: z
    .number({ message: '折扣率必须是数字' })
    .min(0.01, '折扣率不能小于0.01')
    .max(0.99, '折扣率不能大于0.99')
    .refine((v) => Math.abs(v * 10_000 - Math.round(v * 10_000)) < 1e-6, '折扣率最多四位小数'),
  tenantId: idSchema('租户编号无效').nullish(),
  regionId: idSchema('地区编号无效').nullish(),
  gpuType: textSchema().trim().max(64, 'GPU型号过长').nullish(),
  startTime: dateOrTimeSchema,
  endTime: dateOrTimeSchema,
  enabled: z.boolean().default(true),
};

export const discountInputSchema = z.object(fields).superRefine((v, ctx) => {
  if (Date.parse(v.endTime) <= Date.parse(v.startTime))
    ctx.addIssue({ code: 'custom', message: '结束时间必须晚于开始时间', path: ['endTime'] });
});
export type DiscountInput = z.infer<typeof discountInputSchema>;

export const discountStatusInputSchema = z.object({ enabled: z.boolean({ message: '请提供启用状态' }) });

export const discountAdminSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  discountRate: z.number(),
  tenantId: z.number().int().nullable(),
  tenantName: z.string().nullable(),
  regionId: z.number().int().nullable(),
  regionName: z.string().nullable(),
  gpuType: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  enabled: z.boolean(),
  /** ACTIVE now, PENDING (not started), ENDED, or DISABLED. */
  state: z.enum(['ACTIVE', 'PENDING', 'ENDED', 'DISABLED']),
  createdAt: z.string(),
});
export type DiscountAdminView = z.infer<typeof discountAdminSchema>;

export const discountListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1),
  size: z.coerce.number().int().min(1, '每页条数无效').max(200, '每页最多200条').default(20),
  keyword: textSchema().trim().max(64, '关键词过长').optional(),
  regionId: idSchema('地区编号无效').optional(),
  gpuType: textSchema().trim().max(64, 'GPU型号过长').optional(),
  state: z.enum(['ACTIVE', 'PENDING', 'ENDED', 'DISABLED'], { message: '状态无效' }).optional(),
});
export type DiscountListQuery = z.infer<typeof discountListQuerySchema>;

/** Key figures of the admin dashboard. */
export const adminDashboardSchema = z.object({
  /** When these figures were computed (the server reuses them for a short while, issue 33). */
  computedAt: statsComputedAt,
  users: z.number().int(),
  runningInstances: z.number().int(),
  /** Charges less refunds since Shanghai midnight, yuan. */
  todayRevenue: z.number(),
  /** Σ available + frozen of every account, yuan. */
  totalBalances: z.number(),
  activeDiscounts: z.number().int(),
  unusedVoucherValue: z.number(),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

/** What the admin scope pickers offer (regions, tenants, GPU models on sale). */
export const promotionScopesSchema = z.object({
  regions: z.array(z.object({ id: z.number().int(), name: z.string() })),
  tenants: z.array(z.object({ id: z.number().int(), name: z.string() })),
  gpuTypes: z.array(z.string()),
});
export type PromotionScopes = z.infer<typeof promotionScopesSchema>;
