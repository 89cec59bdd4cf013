import { z } from 'zod';

/**
 * Guards (issue 31): idle auto-shutdown, scheduled shutdown (定时关机) and spending caps. The
 * rules' numbers live here once: the server checks them, the console's forms offer them.
 */
export const IDLE_THRESHOLD_DEFAULT = 5;
export const IDLE_MINUTES_MIN = 30;
export const IDLE_MINUTES_MAX = 12 * 60;
export const IDLE_MINUTES_DEFAULT = 60;
/** How long before a guard's power off the user is warned (idle and scheduled shutdown). */
export const GUARD_WARN_MINUTES_DEFAULT = 10;
export const GUARD_WARN_MINUTES_MAX = 120;
/** A spending cap warns once this share of it is spent. */
export const SPENDING_CAP_WARN_PERCENT = 80;
export const SCHEDULE_HOURS_MAX = 720;
export const SPENDING_CAP_MAX = 1_000_000;

/** Idle auto-shutdown: power off when every GPU stayed under `thresholdPercent` for `idleMinutes`. */
export const idleSettingsSchema = z
  .object({
    enabled: z.boolean({ message: '空闲关机开关（enabled）必须是 true 或 false' }),
    thresholdPercent: z
      .number({ message: 'GPU利用率阈值（thresholdPercent）必须是数字' })
      .int('GPU利用率阈值（thresholdPercent）必须是整数')
      .min(1, 'GPU利用率阈值（thresholdPercent）不能小于1%')
      .max(100, 'GPU利用率阈值（thresholdPercent）不能超过100%'),
    idleMinutes: z
      .number({ message: '空闲时长（idleMinutes）必须是数字' })
      .int('空闲时长（idleMinutes）必须是整数分钟')
      .min(IDLE_MINUTES_MIN, `空闲时长（idleMinutes）不能少于${IDLE_MINUTES_MIN}分钟`)
      .max(IDLE_MINUTES_MAX, `空闲时长（idleMinutes）不能超过${IDLE_MINUTES_MAX / 60}小时`),
    warnMinutes: z
      .number({ message: '提前提醒（warnMinutes）必须是数字' })
      .int('提前提醒（warnMinutes）必须是整数分钟')
      .min(1, '提前提醒（warnMinutes）不能少于1分钟')
      .max(GUARD_WARN_MINUTES_MAX, `提前提醒（warnMinutes）不能超过${GUARD_WARN_MINUTES_MAX}分钟`),
  })
  .refine((s) => s.warnMinutes < s.idleMinutes, {
    message: '提前提醒（warnMinutes）必须短于空闲时长（idleMinutes）',
    path: ['warnMinutes'],
  });
export type IdleSettings = z.infer<typeof idleSettingsSchema>;

export const IDLE_SETTINGS_DEFAULT: IdleSettings = {
  enabled: false,
  thresholdPercent: IDLE_THRESHOLD_DEFAULT,
  idleMinutes: IDLE_MINUTES_DEFAULT,
  warnMinutes: GUARD_WARN_MINUTES_DEFAULT,
};

/** Yuan with at most two decimals, or null (no cap). */
const capSchema = (what: string) =>
  z
    .number({ message: `${what}必须是数字或 null` })
    .min(0.01, `${what}不能小于0.01元`)
    .max(SPENDING_CAP_MAX, `${what}不能超过${SPENDING_CAP_MAX}元`)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, `${what}最多两位小数`)
    .nullable();

export const SCHEDULE_MODES = ['off', 'at', 'after'] as const;

/** 定时关机: off, at a moment (ISO with offset), or after N hours of the current run. */
export const scheduleInputSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('off') }),
  z.object({
    mode: z.literal('at'),
    at: z.iso.datetime({ offset: true, message: '关机时间（schedule.at）格式无效' }),
  }),
  z.object({
    mode: z.literal('after'),
    hours: z
      .number({ message: '运行时长（schedule.hours）必须是数字' })
      .int('运行时长（schedule.hours）必须是整数小时')
      .min(1, '运行时长（schedule.hours）不能少于1小时')
      .max(SCHEDULE_HOURS_MAX, `运行时长（schedule.hours）不能超过${SCHEDULE_HOURS_MAX}小时`),
  }),
]);

/** PUT /api/gpu/instance/:uuid/auto-shutdown. `idle: null` follows the account default. */
export const autoShutdownInputSchema = z.object({
  idle: idleSettingsSchema.nullable(),
  schedule: scheduleInputSchema,
  /** Yuan: power off once this run (since the last power on) cost this much. Pay-as-you-go only. */
  spendingCap: capSchema('单实例消费上限（spendingCap）'),
});
export type AutoShutdownInput = z.infer<typeof autoShutdownInputSchema>;

/** A guard's power off that is announced and not yet done (the console's marker, 保持运行). */
export const guardPendingSchema = z.object({
  kind: z.enum(['idle', 'scheduled']),
  /** When it powers off, unless kept running (idle) or cancelled (scheduled). */
  shutdownAt: z.string(),
  /** The warning has gone out. */
  warned: z.boolean(),
});
export type GuardPending = z.infer<typeof guardPendingSchema>;

/** GET /api/gpu/instance/:uuid/auto-shutdown. */
export const autoShutdownSchema = z.object({
  instanceId: z.number().int(),
  /** The instance's own idle settings, or null: it follows the account default (`effectiveIdle`). */
  idle: idleSettingsSchema.nullable(),
  effectiveIdle: idleSettingsSchema,
  schedule: z.object({
    mode: z.enum(SCHEDULE_MODES),
    at: z.string().nullable(),
    hours: z.number().int().nullable(),
  }),
  spendingCap: z.number().nullable(),
  /** Yuan this run has cost so far (pay-as-you-go; 0 otherwise). */
  spentThisRun: z.number(),
  pending: guardPendingSchema.nullable(),
});
export type AutoShutdown = z.infer<typeof autoShutdownSchema>;

/** GET /api/gpu/auto-shutdown: the user's instances with a shutdown scheduled or announced. */
export const autoShutdownMarkersSchema = z.array(guardPendingSchema.extend({ instanceId: z.number().int() }));
export type AutoShutdownMarker = z.infer<typeof autoShutdownMarkersSchema>[number];

/** PUT /api/user/spending-caps: account caps (Asia/Shanghai day and month) and the idle default. */
export const spendingCapsInputSchema = z.object({
  dailyCap: capSchema('每日消费上限（dailyCap）'),
  monthlyCap: capSchema('每月消费上限（monthlyCap）'),
  idleDefault: idleSettingsSchema,
});
export type SpendingCapsInput = z.infer<typeof spendingCapsInputSchema>;

export const spendingCapsSchema = spendingCapsInputSchema.extend({
  /** Pay-as-you-go spend (yuan) today and this month, Asia/Shanghai, up to now. */
  spentToday: z.number(),
  spentThisMonth: z.number(),
});
export type SpendingCaps = z.infer<typeof spendingCapsSchema>;
