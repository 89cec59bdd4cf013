import { unitsToYuan, yuanToUnits } from '@gpu/shared/money';
import {
  defaultNotificationChannels,
  LOW_BALANCE_THRESHOLD_DEFAULT,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationSettings,
  WEBHOOK_RETRY_DELAYS_S,
} from '@gpu/shared/notifications';

export type StoredChannels = Partial<Record<NotificationEvent, NotificationChannel[]>>;

/** The default low-balance threshold in money units. */
export const LOW_BALANCE_DEFAULT_UNITS = yuanToUnits(LOW_BALANCE_THRESHOLD_DEFAULT);

/** The channels that carry `event` for a user: their own choice, else the default. */
export const channelsOf = (stored: StoredChannels | null | undefined, event: NotificationEvent) =>
  stored?.[event] ?? defaultNotificationChannels(event);

/** The settings as GET answers them: every event, the threshold in yuan. */
export function settingsView(
  row: { channels: StoredChannels; lowBalanceThreshold: number | null } | undefined,
): NotificationSettings {
  const channels = Object.fromEntries(
    NOTIFICATION_EVENTS.map((e) => [e, channelsOf(row?.channels, e)]),
  ) as NotificationSettings['channels'];
  return {
    channels,
    lowBalanceThreshold: unitsToYuan(row?.lowBalanceThreshold ?? LOW_BALANCE_DEFAULT_UNITS),
  };
}

/** A user's choice merged into what was stored; duplicates dropped, in the channels' order. */
export function mergeChannels(stored: StoredChannels, given: StoredChannels): StoredChannels {
  const out: StoredChannels = { ...stored };
  for (const [event, list] of Object.entries(given) as [NotificationEvent, NotificationChannel[]][]) {
    out[event] = NOTIFICATION_CHANNELS.filter((c) => list.includes(c));
  }
  return out;
}

/**
 * When a delivery that failed its `attempts`-th try goes again (WEBHOOK_RETRY_DELAYS_S), or null
 * when its retries are spent.
 */
export function nextAttemptAfter(attempts: number, now: Date): Date | null {
  const delay = WEBHOOK_RETRY_DELAYS_S[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay * 1000);
}

/** The first characters of an answer, for the delivery log. */
export const EXCERPT_MAX = 200;
export const excerptOf = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_MAX);

/** The secret's tail as GET shows it. */
export const secretHintOf = (secret: string) => `••••${secret.slice(-4)}`;
