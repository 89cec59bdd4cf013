import { z } from 'zod';

/**
 * The events the platform tells a customer about (issue 31), and the channels it can use. One
 * list: the notices module writes them, the settings screen offers them, the locale names them.
 */
export const NOTIFICATION_EVENTS = [
  'low_balance',
  'arrears_stop',
  'package_expiring',
  'package_expired',
  'release_scheduled',
  'idle_shutdown_warning',
  'idle_shutdown',
  'scheduled_shutdown_warning',
  'scheduled_shutdown',
  'spending_cap_warning',
  'spending_cap_shutdown',
  'create_failed_refunded',
  'recharge_succeeded',
  'voucher_received',
  'voucher_expiring',
  /** An administrator acted on the user's instance (powered off, started, released it). */
  'admin_action',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_CHANNELS = ['site', 'sms', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** The low-balance threshold's default (yuan), per account. */
export const LOW_BALANCE_THRESHOLD_DEFAULT = 10;
export const WEBHOOKS_PER_USER = 5;
/** Deliveries retried with backoff after the first try (1 min, 5 min, 30 min, 2 h, 6 h). */
export const WEBHOOK_RETRY_DELAYS_S = [60, 300, 1800, 7200, 21600] as const;
/** Webhook requests carry these: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Gpu-Signature';
export const WEBHOOK_EVENT_HEADER = 'X-Gpu-Event';

/** GET /api/user/notifications: the message centre, newest first. */
export const notificationSchema = z
  .object({
    id: z.number().int(),
    event: z.enum(NOTIFICATION_EVENTS),
    title: z.string(),
    body: z.string(),
    instanceId: z.number().int().nullable(),
    read: z.boolean(),
    createdAt: z.string(),
  })
  .meta({
    examples: [
      {
        id: 88,
        event: 'idle_shutdown',
        title: '实例已因GPU空闲自动关机',
        body: '实例「RTX-4090-1126103000」的GPU利用率连续60分钟低于5%，系统已自动关机，停止计费。',
        instanceId: 1024,
        read: false,
        createdAt: '2026-11-26T12:00:00.000+08:00',
      },
    ],
  });
export type Notification = z.infer<typeof notificationSchema>;

export const notificationPageSchema = z.object({
  list: z.array(notificationSchema),
  total: z.number().int(),
  unread: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/** GET/PUT /api/user/notification-settings: per event, the channels that carry it; the threshold. */
export const notificationSettingsSchema = z.object({
  channels: z.record(z.enum(NOTIFICATION_EVENTS), z.array(z.enum(NOTIFICATION_CHANNELS))),
  /** Yuan; a low-balance notice goes out when the available balance falls under it. */
  lowBalanceThreshold: z.number(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** GET /api/user/webhooks: the secret is shown whole only in the POST answer, masked after. */
export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  secretHint: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
  /** The last deliveries, newest first (the delivery log). */
  deliveries: z.array(
    z.object({
      id: z.number().int(),
      event: z.enum(NOTIFICATION_EVENTS),
      attempts: z.number().int(),
      /** pending (will retry), delivered, failed (retries spent). */
      status: z.enum(['pending', 'delivered', 'failed']),
      responseStatus: z.number().int().nullable(),
      /** The start of the last answer's body, or the network error. */
      responseExcerpt: z.string(),
      lastAttemptAt: z.string().nullable(),
      nextAttemptAt: z.string().nullable(),
    }),
  ),
});
export type Webhook = z.infer<typeof webhookSchema>;

/**
 * Channels on by default (the settings screen's starting point; a user's own choice replaces
 * them per event): the site always; SMS for money and data-loss events; webhooks for all (sent
 * only where the user has one).
 */
export const SMS_DEFAULT_EVENTS: readonly NotificationEvent[] = [
  'low_balance',
  'arrears_stop',
  'package_expiring',
  'release_scheduled',
];
export const defaultNotificationChannels = (event: NotificationEvent): NotificationChannel[] =>
  SMS_DEFAULT_EVENTS.includes(event) ? ['site', 'sms', 'webhook'] : ['site', 'webhook'];

/** The highest low-balance threshold (yuan) a user may set. */
export const LOW_BALANCE_THRESHOLD_MAX = 100_000;

/**
 * PUT /api/user/notification-settings: events left out keep what they had; 0 as threshold
 * turns the low-balance notice off.
 */
export const notificationSettingsInputSchema = z.object({
  channels: z
    .partialRecord(
      z.enum(NOTIFICATION_EVENTS, { message: '通知事件不存在' }),
      z
        .array(z.enum(NOTIFICATION_CHANNELS, { message: '通知渠道只能是 site、sms 或 webhook' }), {
          message: '通知渠道应为列表',
        })
        .max(NOTIFICATION_CHANNELS.length, '通知渠道重复'),
      { message: 'channels 中的通知事件或渠道无效' },
    )
    .optional(),
  lowBalanceThreshold: z
    .number({ message: '余额提醒阈值必须是数字' })
    .min(0, '余额提醒阈值不能小于0')
    .max(LOW_BALANCE_THRESHOLD_MAX, `余额提醒阈值不能超过${LOW_BALANCE_THRESHOLD_MAX}`)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, '余额提醒阈值最多两位小数')
    .optional(),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsInputSchema>;

/** GET /api/user/notifications?page=&size=&unread=true */
export const notificationQuerySchema = z.object({
  page: z.coerce
    .number({ message: '页码无效' })
    .int('页码无效')
    .min(1, '页码无效')
    .max(10_000, '页码无效')
    .default(1),
  size: z.coerce
    .number({ message: '每页条数无效' })
    .int('每页条数无效')
    .min(1, '每页条数无效')
    .max(100, '每页条数最多100')
    .default(20),
  unread: z.enum(['true', 'false'], { message: 'unread 只能是 true 或 false' }).optional(),
});

/** POST /api/user/notifications/read: these ids, or (none) every unread one. */
export const markNotificationsReadSchema = z.object({
  ids: z
    .array(z.number({ message: '通知编号无效' }).int('通知编号无效').min(1, '通知编号无效'), {
      message: '通知编号应为列表',
    })
    .max(500, '一次最多标记500条')
    .optional(),
});

export const WEBHOOK_URL_MAX = 500;
/** POST /api/user/webhooks */
export const webhookInputSchema = z.object({
  url: z
    .string({ message: '请输入回调地址' })
    .trim()
    .min(1, '请输入回调地址')
    .max(WEBHOOK_URL_MAX, `回调地址最多${WEBHOOK_URL_MAX}个字符`)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
      } catch {
        return false;
      }
    }, '回调地址必须是 http:// 或 https:// 开头的有效地址，且不含用户名密码'),
});

/** POST /api/user/webhooks answers the secret whole, this once. */
/** PUT /api/user/webhooks/:id: pause or resume deliveries to it. */
export const webhookSwitchSchema = z.object({
  enabled: z.boolean({ message: 'enabled 只能是 true 或 false' }),
});

export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** POST /api/user/webhooks/{id}/test: the test event's delivery, sent now (not retried, not logged). */
export const webhookTestResultSchema = z.object({
  ok: z.boolean(),
  responseStatus: z.number().int().nullable(),
  responseExcerpt: z.string(),
  durationMs: z.number().int(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;
/** The event header's value of a test delivery. */
export const WEBHOOK_TEST_EVENT = 'webhook_test';

/** What a webhook request's JSON body holds. `id` is the notice's: the same on every retry. */
export interface WebhookPayload {
  id: number;
  event: NotificationEvent | typeof WEBHOOK_TEST_EVENT;
  title: string;
  body: string;
  instanceId: number | null;
  createdAt: string;
  params: Record<string, unknown>;
}
