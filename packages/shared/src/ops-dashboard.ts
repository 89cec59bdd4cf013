import { z } from 'zod';
import { idSchema } from './input.ts';
import { statsComputedAt } from './stats.ts';

/**
 * The admin dashboard (/admin/dashboard): money trends per Asia/Shanghai day over a period, GPU
 * occupancy, failed creates, hosts not seen recently and low balances. Money in yuan; times ISO.
 */
export const DASHBOARD_PERIODS = [7, 30, 90] as const;
export const DASHBOARD_LOW_BALANCE_DEFAULT = 10;
/** The market sync probes every host each minute: ten minutes without one is worth a look. */
export const DASHBOARD_STALE_MINUTES_DEFAULT = 10;

export const opsDashboardQuerySchema = z.object({
  days: z.coerce
    .number({ message: '统计周期只能是 7、30 或 90 天' })
    .refine((d) => (DASHBOARD_PERIODS as readonly number[]).includes(d), '统计周期只能是 7、30 或 90 天')
    .default(7),
  tenantId: idSchema('租户编号无效').optional(),
  lowBalance: z.coerce
    .number({ message: '低余额阈值必须是数字' })
    .min(0, '低余额阈值不能为负')
    .max(1_000_000, '低余额阈值最多为1000000')
    .default(DASHBOARD_LOW_BALANCE_DEFAULT),
  staleMinutes: z.coerce
    .number({ message: '失联分钟数必须是数字' })
    .int('失联分钟数必须是整数')
    .min(1, '失联分钟数至少为1')
    .max(10_080, '失联分钟数最多为10080')
    .default(DASHBOARD_STALE_MINUTES_DEFAULT),
});
export type OpsDashboardQuery = z.infer<typeof opsDashboardQuerySchema>;

const occupancy = {
  total: z.number().int(),
  free: z.number().int(),
  occupied: z.number().int(),
  reserved: z.number().int(),
};

export const opsDashboardSchema = z.object({
  /** When these figures were computed (the server reuses them for a short while, issue 33). */
  computedAt: statsComputedAt,
  days: z.number().int(),
  /** First and last Shanghai day of the period (today included). */
  from: z.string(),
  to: z.string(),
  /** One point per day, zero-filled: recharges; consumption (bills, vouchers included); revenue (cash charged less refunds). */
  trend: z.array(
    z.object({ date: z.string(), recharge: z.number(), consumption: z.number(), revenue: z.number() }),
  ),
  totals: z.object({ recharge: z.number(), consumption: z.number(), revenue: z.number() }),
  occupancyByModel: z.array(z.object({ model: z.string(), ...occupancy })),
  occupancyByHost: z.array(
    z.object({ hostId: z.number().int(), hostName: z.string(), regionName: z.string(), ...occupancy }),
  ),
  failedCreates: z.object({
    count: z.number().int(),
    latest: z.array(
      z.object({
        instanceId: z.number().int(),
        instanceName: z.string(),
        userId: z.number().int(),
        phone: z.string(),
        tenantName: z.string(),
        hostName: z.string(),
        gpuModel: z.string(),
        reason: z.string().nullable(),
        failedAt: z.string(),
      }),
    ),
  }),
  staleHosts: z.object({
    minutes: z.number().int(),
    list: z.array(
      z.object({
        hostId: z.number().int(),
        hostName: z.string(),
        regionName: z.string(),
        /** The last probe, whatever its result; null when never probed. */
        lastProbeAt: z.string().nullable(),
        lastProbeOk: z.boolean().nullable(),
        lastProbeError: z.string().nullable(),
      }),
    ),
  }),
  lowBalance: z.object({
    threshold: z.number(),
    count: z.number().int(),
    list: z.array(
      z.object({
        userId: z.number().int(),
        phone: z.string(),
        username: z.string(),
        tenantName: z.string(),
        available: z.number(),
      }),
    ),
  }),
});
export type OpsDashboard = z.infer<typeof opsDashboardSchema>;
