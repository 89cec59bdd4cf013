import type { NotificationEvent } from '@gpu/shared/notifications';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { userNotices } from './notices.tables.ts';
import { channelsOf } from './notifications.models.ts';
import { notificationDeliveries, notificationSettings, userWebhooks } from './notifications.tables.ts';

export type NoticeInput = typeof userNotices.$inferInsert;

export function createNoticesRepository({ db }: { db: DbOrTx }) {
  return {
    /**
     * Writes a notice once: with a `dedupeKey` already written for this user it does nothing and
     * returns null. A new notice queues its SMS and webhook deliveries (the user's channels for
     * the event) in the same transaction, so only the first writer fans the event out; the
     * delivery task sends them. A user who turned the site channel off for the event still gets
     * the row (it is the record and the dedupe point), written as read: it stays out of the bell.
     */
    notify: (values: NoticeInput): Promise<number | null> =>
      db.transaction(async (tx) => {
        const event: NotificationEvent = values.event ?? 'admin_action';
        const [settings] = await tx
          .select({ channels: notificationSettings.channels })
          .from(notificationSettings)
          .where(eq(notificationSettings.userId, values.userId));
        const channels = channelsOf(settings?.channels, event);
        const readAt = channels.includes('site') ? null : sql`now()`;
        const [row] = await tx
          .insert(userNotices)
          .values({ ...values, event, readAt })
          .onConflictDoNothing()
          .returning({ id: userNotices.id });
        if (!row) return null;
        const hooks = channels.includes('webhook')
          ? await tx
              .select({ id: userWebhooks.id })
              .from(userWebhooks)
              .where(and(eq(userWebhooks.userId, values.userId), eq(userWebhooks.enabled, true)))
          : [];
        const queued = [
          ...(channels.includes('sms') ? [{ channel: 'sms' as const, webhookId: null }] : []),
          ...hooks.map((h) => ({ channel: 'webhook' as const, webhookId: h.id })),
        ];
        if (queued.length > 0) {
          await tx
            .insert(notificationDeliveries)
            .values(queued.map((q) => ({ ...q, noticeId: row.id, userId: values.userId, event })));
        }
        return row.id;
      }),
    notices: (userId: number, unreadOnly: boolean, limit: number, offset = 0) =>
      db
        .select()
        .from(userNotices)
        .where(and(eq(userNotices.userId, userId), unreadOnly ? isNull(userNotices.readAt) : undefined))
        .orderBy(desc(userNotices.id))
        .limit(limit)
        .offset(offset),
    /** How many notices the user has, and how many of them are unread. */
    async counts(userId: number, unreadOnly: boolean) {
      const [row] = await db
        .select({
          total: count(),
          unread: sql<number>`count(*) filter (where ${userNotices.readAt} is null)`.mapWith(Number),
        })
        .from(userNotices)
        .where(and(eq(userNotices.userId, userId), unreadOnly ? isNull(userNotices.readAt) : undefined));
      return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
    },
    /** Marks these notices (none given: every one) read; another user's ids change nothing. */
    async markRead(userId: number, at: Date, ids?: number | number[]) {
      const list = ids === undefined ? undefined : [ids].flat();
      if (list?.length === 0) return;
      await db
        .update(userNotices)
        .set({ readAt: at })
        .where(
          and(
            eq(userNotices.userId, userId),
            isNull(userNotices.readAt),
            list ? inArray(userNotices.id, list) : undefined,
          ),
        );
    },
  };
}
