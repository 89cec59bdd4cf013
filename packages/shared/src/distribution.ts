import { z } from 'zod';
import { dateOrTimeSchema, idSchema, textSchema } from './input.ts';

/** Admin voucher distribution (SPEC.md §7): whom a batch reaches, and whom it skips and why. */
// ---- Admin: distribution ----

// A malformed phone does not refuse the whole list: the answer names it among the skipped.
const phoneItem = z.string({ message: '手机号必须是文字' }).trim().max(32, '手机号过长');

export const distributionTargetSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('tenant'), tenantId: idSchema('请选择租户') }),
    z.object({
      type: z.literal('phones'),
      phones: z.array(phoneItem).min(1, '请至少填写一个手机号').max(5_000, '一次最多5000个手机号'),
      tenantId: idSchema('租户编号无效').optional(),
    }),
    z.object({
      type: z.literal('registered'),
      from: dateOrTimeSchema,
      to: dateOrTimeSchema,
      tenantId: idSchema('租户编号无效').optional(),
    }),
    z.object({
      type: z.literal('spend'),
      minSpend: z.number({ message: '消费金额必须是数字' }).min(0, '消费金额不能为负').max(100_000_000),
      tenantId: idSchema('租户编号无效').optional(),
    }),
  ],
  { message: '请选择发放对象' },
);
export type DistributionTarget = z.infer<typeof distributionTargetSchema>;

export const distributionPreviewInputSchema = z.object({
  configId: idSchema('请选择代金券配置'),
  target: distributionTargetSchema,
});

export const distributionExecuteInputSchema = distributionPreviewInputSchema.extend({
  /** Names this distribution: executing it again issues nothing more. */
  requestId: z
    .string({ message: '缺少发放请求编号' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, '发放请求编号无效'),
  remark: textSchema().trim().max(200, '备注最多200个字符').default(''),
});
export type DistributionExecuteInput = z.infer<typeof distributionExecuteInputSchema>;

export const distributionUserSchema = z.object({
  userId: z.number().int(),
  phone: z.string(),
  username: z.string(),
});

/** Why a listed phone (or a targeted user) gets no voucher. */
export const DISTRIBUTION_SKIP_REASONS = [
  'invalid',
  'duplicate',
  'not_registered',
  'other_tenant',
  'disabled',
  'at_limit',
] as const;
export type DistributionSkipReason = (typeof DISTRIBUTION_SKIP_REASONS)[number];
export const distributionSkipSchema = z.object({
  phone: z.string(),
  reason: z.enum(DISTRIBUTION_SKIP_REASONS),
});
export type DistributionSkip = z.infer<typeof distributionSkipSchema>;

export const distributionPreviewSchema = z.object({
  count: z.number().int(),
  /** Of those, already at the config's per-user limit: they get nothing. */
  atLimit: z.number().int(),
  sample: z.array(distributionUserSchema),
  /** Each phone that gets nothing, with why, in the order given. */
  skipped: z.array(distributionSkipSchema),
});
export type DistributionPreview = z.infer<typeof distributionPreviewSchema>;

export const distributionSchema = z.object({
  id: z.number().int(),
  requestId: z.string(),
  configId: z.number().int(),
  configName: z.string(),
  target: z.unknown(),
  targetCount: z.number().int(),
  issuedCount: z.number().int(),
  remark: z.string(),
  adminId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type DistributionView = z.infer<typeof distributionSchema>;

/** What executing answers: the distribution and each skipped phone (empty when it was a repeat). */
export const distributionResultSchema = distributionSchema.extend({
  skipped: z.array(distributionSkipSchema),
});
export type DistributionResult = z.infer<typeof distributionResultSchema>;

export const distributionDetailSchema = distributionSchema.extend({
  items: z.array(distributionUserSchema.extend({ voucherId: z.number().int(), voucherCode: z.string() })),
});
export type DistributionDetail = z.infer<typeof distributionDetailSchema>;

export const distributionListQuerySchema = z.object({
  page: z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1),
  size: z.coerce.number().int().min(1, '每页条数无效').max(200, '每页最多200条').default(20),
  configId: idSchema('配置编号无效').optional(),
});
export type DistributionListQuery = z.infer<typeof distributionListQuerySchema>;
