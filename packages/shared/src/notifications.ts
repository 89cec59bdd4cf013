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
