import { z } from 'zod';
import { BILLING_TYPES } from './constants.ts';
import { dateSchema, idSchema, textSchema } from './input.ts';
import { INSTANCE_STATUSES } from './labels.ts';
import { statsComputedAt } from './stats.ts';

/**
 * The back office's operations screens (SPEC.md §7 Admin): balance monitoring, user
 * management, instance monitor, and the notices an admin action leaves in the user's console.
 * Money in yuan; times ISO strings.
 */

const page = z.coerce.number().int().min(1, '页码无效').max(100_000, '页码无效').default(1);
const size = z.coerce.number().int().min(1, '每页条数无效').max(100, '每页最多100条').default(20);
const keyword = textSchema().trim().max(64, '搜索内容过长').optional();

// ---- Balance monitoring

export const BALANCE_WARNING_HOURS_DEFAULT = 24;
export const balanceWarningsQuerySchema = z.object({
  hours: z.coerce
    .number({ message: '请输入小时数' })
    .int('小时数必须是整数')
    .min(1, '小时数至少为1')
    .max(720, '小时数最多为720')
    .default(BALANCE_WARNING_HOURS_DEFAULT),
  page,
  size,
});
export type BalanceWarningsQuery = z.infer<typeof balanceWarningsQuerySchema>;

export const balanceWarningSchema = z.object({
  userId: z.number().int(),
  phone: z.string(),
  username: z.string(),
  tenantName: z.string(),
  available: z.number(),
  /** Accrued by running pay-as-you-go instances and not yet charged. */
  pending: z.number(),
  /** Σ hourly price of the user's running pay-as-you-go instances. */
  hourlyCost: z.number(),
  runningInstances: z.number().int(),
  /** Hours the balance still covers (0 when already in arrears). */
  hoursLeft: z.number(),
});
export type BalanceWarning = z.infer<typeof balanceWarningSchema>;

export const balanceStatsSchema = z.object({
  /** When these figures were computed (the server reuses them for a short while, issue 33). */
  computedAt: statsComputedAt,
  accounts: z.number().int(),
  totalAvailable: z.number(),
  totalFrozen: z.number(),
  arrearsUsers: z.number().int(),
  arrearsAmount: z.number(),
  /** Users whose balance covers less than the default warning window. */
  warningUsers: z.number().int(),
  runningHourlyInstances: z.number().int(),
  hourlyBurn: z.number(),
  rechargeToday: z.number(),
});
export type BalanceStats = z.infer<typeof balanceStatsSchema>;

export const balanceMismatchSchema = z.object({
  userId: z.number().int(),
  phone: z.string().nullable(),
  available: z.number(),
  ledgerAvailable: z.number(),
  frozen: z.number(),
  ledgerFrozen: z.number(),
});
export const balanceHealthSchema = z.object({
  healthy: z.boolean(),
  checkedAt: z.string(),
  accounts: z.number().int(),
  totalAvailable: z.number(),
  ledgerAvailable: z.number(),
  totalFrozen: z.number(),
  ledgerFrozen: z.number(),
  mismatches: z.array(balanceMismatchSchema),
});
export type BalanceHealth = z.infer<typeof balanceHealthSchema>;
export const balanceCheckResultSchema = balanceHealthSchema.extend({ warningUsers: z.number().int() });
export type BalanceCheckResult = z.infer<typeof balanceCheckResultSchema>;

// ---- User management

export const ADMIN_USER_SORTS = ['createdAt', 'available', 'totalSpend'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const adminUserListQuerySchema = z.object({
  page,
  size,
  /** Phone or user name, part of it. */
  keyword,
  tenantId: idSchema('租户编号无效').optional(),
  startDate: dateSchema.optional(),
  endDate: dateSchema.optional(),
  sortBy: z
    .enum(ADMIN_USER_SORTS, { message: '排序字段只能是 createdAt、available 或 totalSpend' })
    .default('createdAt'),
  order: z.enum(['asc', 'desc'], { message: '排序方向只能是 asc 或 desc' }).default('desc'),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

export const adminUserSchema = z.object({
  id: z.number().int(),
  phone: z.string(),
  username: z.string(),
  tenantId: z.number().int(),
  tenantName: z.string(),
  status: z.string(),
  available: z.number(),
  frozen: z.number(),
  /** What the user paid for instances (bills, refunds netted). */
  totalSpend: z.number(),
  instances: z.number().int(),
  runningInstances: z.number().int(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserStatisticsSchema = z.object({
  /** When these figures were computed (the server reuses them for a short while, issue 33). */
  computedAt: statsComputedAt,
  totalUsers: z.number().int(),
  newToday: z.number().int(),
  activeUsers: z.number().int(),
  disabledUsers: z.number().int(),
  totalBalance: z.number(),
  totalSpend: z.number(),
});
export type AdminUserStatistics = z.infer<typeof adminUserStatisticsSchema>;

export const adminInstanceListQuerySchema = z.object({
  page,
  size,
  userId: idSchema('用户编号无效').optional(),
  hostId: idSchema('主机编号无效').optional(),
  status: z.enum(INSTANCE_STATUSES, { message: '实例状态无效' }).optional(),
  billingType: z.enum(BILLING_TYPES, { message: '计费方式无效' }).optional(),
  /** Part of the instance name, user phone, host name, GPU model or container id; or the instance id. */
  keyword,
});
export type AdminInstanceListQuery = z.infer<typeof adminInstanceListQuerySchema>;

export const adminInstanceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(INSTANCE_STATUSES),
  userId: z.number().int(),
  userPhone: z.string(),
  tenantName: z.string(),
  hostId: z.number().int(),
  hostName: z.string(),
  regionName: z.string(),
  gpuModel: z.string(),
  gpuCount: z.number().int(),
  gpuIndices: z.array(z.number().int()),
  billingType: z.enum(BILLING_TYPES),
  hourlyPrice: z.number(),
  /** A package's price per period (day, week or month) for all its GPUs; null when pay-as-you-go. */
  packagePrice: z.number().nullable(),
  charged: z.number(),
  image: z.string(),
  createdAt: z.string(),
  runningSince: z.string().nullable(),
  stoppedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  stopReason: z.string().nullable(),
});
export type AdminInstance = z.infer<typeof adminInstanceSchema>;

/** Why an admin powers off, starts or terminates a user's instance (shown to the user). */
export const adminReasonSchema = textSchema('请填写操作原因')
  .trim()
  .min(1, '请填写操作原因')
  .max(200, '操作原因不能超过200个字符');
export const adminInstanceActionSchema = z.object({ reason: adminReasonSchema });
export type AdminInstanceAction = z.infer<typeof adminInstanceActionSchema>;
export const ADMIN_INSTANCE_ACTIONS = ['power-off', 'start', 'terminate', 'reset-system'] as const;
export type AdminInstanceActionName = (typeof ADMIN_INSTANCE_ACTIONS)[number];

// ---- Instance monitor

export const runningInstancesQuerySchema = adminInstanceListQuerySchema.omit({ status: true });
export type RunningInstancesQuery = z.infer<typeof runningInstancesQuerySchema>;
export const forceStopQuerySchema = z.object({ reason: adminReasonSchema });

export const instanceMonitorStatisticsSchema = z.object({
  /** When these figures were computed (the server reuses them for a short while, issue 33). */
  computedAt: statsComputedAt,
  running: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
  /** Per model, by the hosts' one definition: busy (占用) + reserved (保留) + idle (空闲) = total. */
  gpus: z.array(
    z.object({
      model: z.string(),
      total: z.number().int(),
      busy: z.number().int(),
      reserved: z.number().int(),
      idle: z.number().int(),
    }),
  ),
  /** Charges net of refunds since 00:00 Asia/Shanghai. */
  revenueToday: z.number(),
  hourlyBurn: z.number(),
});
export type InstanceMonitorStatistics = z.infer<typeof instanceMonitorStatisticsSchema>;

// ---- The user's notices

export const userNoticeSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  instanceId: z.number().int().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type UserNotice = z.infer<typeof userNoticeSchema>;
