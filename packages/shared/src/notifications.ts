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
export const notificationSchema = z.object({
  id: z.number().int(),
  event: z.enum(NOTIFICATION_EVENTS),
  title: z.string(),
  body: z.string(),
  instanceId: z.number().int().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
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
