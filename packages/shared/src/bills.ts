import { z } from 'zod';
import { dateSchema, idSchema } from './input.ts';
import { BILL_KINDS } from './labels.ts';
import { billingTypeSchema } from './pricing.ts';

export const billSchema = z
  .object({
    id: z.number().int(),
    /** The number the customer sees: OD… (orders: create, renewal, refund) or BL… (metering). */
    recordNo: z.string(),
    instanceId: z.number().int(),
    instanceName: z.string(),
    billingType: billingTypeSchema,
    kind: z.enum(BILL_KINDS),
    periodStart: z.string(),
    periodEnd: z.string(),
    /** Yuan; negative for refunds. */
    amount: z.number(),
    voucherAmount: z.number(),
    /** Metering lines (按量扣费, 无卡模式): yuan per hour they were charged at; null for orders. */
    hourlyPrice: z.number().nullable(),
    createdAt: z.string(),
  })
  .meta({
    // One hour of pay-as-you-go metering (按量扣费), in yuan.
    examples: [
      {
        id: 5120,
        recordNo: 'BL20261126113000A1B2C3D4E5F6',
        instanceId: 1024,
        instanceName: 'RTX-4090-1126103000',
        billingType: 'hourly',
        kind: 'metering',
        periodStart: '2026-11-26T10:30:08.000+08:00',
        periodEnd: '2026-11-26T11:30:08.000+08:00',
        amount: 1.98,
        voucherAmount: 0,
        hourlyPrice: 1.98,
        createdAt: '2026-11-26T11:30:08.000+08:00',
      },
    ],
  });
export type Bill = z.infer<typeof billSchema>;

/**
 * One kind or several: `kind=a,b` or `kind=a&kind=b` (and the old single `kind=a`), as a list;
 * an empty value means every kind.
 */
const kindsSchema = z.preprocess(
  (v) => {
    if (v === undefined) return undefined;
    const list = (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim());
    return list.some(Boolean) ? list : undefined;
  },
  z
    .array(
      z.enum(BILL_KINDS, {
        message: '类型只能是 create、metering、renewal、refund、nogpu（可用逗号分隔多个）',
      }),
    )
    .optional(),
);

export const billQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  billingType: billingTypeSchema.optional(),
  kind: kindsSchema,
  instanceId: idSchema('实例编号无效').optional(),
  /** One order or bill by its number (OD…/BL…), as typed: spaces trimmed, letters upper-cased. */
  recordNo: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() || undefined : v),
    z
      .string()
      .regex(/^(OD|BL)\d{14}[0-9A-F]{12}$/, '订单/账单编号格式不正确')
      .optional(),
  ),
  /** Days in Asia/Shanghai, inclusive. */
  from: dateSchema.optional(),
  to: dateSchema.optional(),
});
export type BillQuery = z.infer<typeof billQuerySchema>;

export const billSummarySchema = z
  .object({
    todaySpend: z.number(),
    monthSpend: z.number(),
    totalSpend: z.number(),
    runningInstances: z.number().int(),
    /** Yuan per hour of every running pay-as-you-go instance. */
    hourlyBurn: z.number(),
    available: z.number(),
  })
  .meta({
    examples: [
      {
        todaySpend: 12.6,
        monthSpend: 356.8,
        totalSpend: 1288.4,
        runningInstances: 2,
        hourlyBurn: 3.96,
        available: 128.5,
      },
    ],
  });

export const dailyConsumptionSchema = z.array(z.object({ date: z.string(), amount: z.number() }));
export type BillSummary = z.infer<typeof billSummarySchema>;
export type DailyConsumption = z.infer<typeof dailyConsumptionSchema>;
/** GET /api/v2/billing/monitor/info: the summary plus hours the balance lasts at the current burn. */
export type BillingMonitorInfo = BillSummary & { estimatedHoursLeft: number | null };
