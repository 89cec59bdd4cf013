import type { UserNotice } from '@gpu/shared';
import { yuanToUnits } from '@gpu/shared/money';
import type { Notification, NotificationPage, NotificationSettingsInput } from '@gpu/shared/notifications';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/http/types.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import type { SmsDriver } from '../sms/index.ts';
import { createNoticesRepository } from './notices.repository.ts';
import { mergeChannels, settingsView } from './notifications.models.ts';
import { createNotificationsRepository } from './notifications.repository.ts';
import type { WebhookSenderSettings } from './webhook-sender.ts';

export interface NoticesDeps {
  db: Db;
  now: Now;
  box: SecretBox;
  sms: SmsDriver;
  log: Logger;
  webhooks: WebhookSenderSettings;
}

type NoticeRow = Awaited<ReturnType<ReturnType<typeof createNoticesRepository>['notices']>>[number];

const toNotification = (r: NoticeRow): Notification => ({
  id: r.id,
  event: r.event,
  title: r.title,
  body: r.body,
  instanceId: r.instanceId,
  read: r.readAt !== null,
  createdAt: r.createdAt.toISOString(),
});

/** The user's notices, newest first (the console shows the unread ones). */
export async function listNotices(
  deps: Pick<NoticesDeps, 'db'>,
  userId: number,
  unreadOnly: boolean,
): Promise<UserNotice[]> {
  const rows = await createNoticesRepository(deps).notices(userId, unreadOnly, 50);
  return rows.map((r) => {
    const { event: _event, ...notice } = toNotification(r);
    return notice;
  });
}

/** The message centre's page, newest first, with the unread count the bell shows. */
export async function notificationPage(
  deps: Pick<NoticesDeps, 'db'>,
  userId: number,
  q: { page: number; size: number; unread?: 'true' | 'false' },
): Promise<NotificationPage> {
  const repo = createNoticesRepository(deps);
  const unreadOnly = q.unread === 'true';
  const [rows, all] = await Promise.all([
    repo.notices(userId, unreadOnly, q.size, (q.page - 1) * q.size),
    repo.counts(userId, false),
  ]);
  const total = unreadOnly ? all.unread : all.total;
  return { list: rows.map(toNotification), total, unread: all.unread, page: q.page, size: q.size };
}

/** Marks these notices (or, without ids, all of them) read; another user's ids change nothing. */
export async function markNoticesRead(
  deps: Pick<NoticesDeps, 'db' | 'now'>,
  userId: number,
  ids?: number | number[],
) {
  await createNoticesRepository(deps).markRead(userId, deps.now(), ids);
}

export async function notificationSettings(deps: Pick<NoticesDeps, 'db'>, userId: number) {
  return settingsView(await createNotificationsRepository(deps).settings(userId));
}

/** Saves what the user changed (events left out keep their channels) and answers the whole. */
export async function saveNotificationSettings(
  deps: Pick<NoticesDeps, 'db'>,
  userId: number,
  input: NotificationSettingsInput,
) {
  const repo = createNotificationsRepository(deps);
  const stored = await repo.settings(userId);
  const channels = mergeChannels(stored?.channels ?? {}, input.channels ?? {});
  const threshold =
    input.lowBalanceThreshold === undefined
      ? (stored?.lowBalanceThreshold ?? null)
      : yuanToUnits(input.lowBalanceThreshold);
  await repo.saveSettings(userId, channels, threshold);
  return settingsView({ channels, lowBalanceThreshold: threshold });
}
