import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../auth/auth.tables.ts';
import { userNotices } from './notices.tables.ts';
import type { StoredChannels } from './notifications.models.ts';
import { notificationDeliveries, notificationSettings, userWebhooks } from './notifications.tables.ts';

export type DeliveryRow = typeof notificationDeliveries.$inferSelect;
type DeliveryResult = Pick<
  typeof notificationDeliveries.$inferInsert,
  'status' | 'responseStatus' | 'responseExcerpt' | 'nextAttemptAt' | 'attempts'
>;

export function createNotificationsRepository({ db }: { db: DbOrTx }) {
  return {
    async settings(userId: number) {
      const [row] = await db
        .select()
        .from(notificationSettings)
        .where(eq(notificationSettings.userId, userId));
      return row;
    },
    async saveSettings(userId: number, channels: StoredChannels, lowBalanceThreshold: number | null) {
      await db
        .insert(notificationSettings)
        .values({ userId, channels, lowBalanceThreshold })
        .onConflictDoUpdate({
          target: notificationSettings.userId,
          set: { channels, lowBalanceThreshold, updatedAt: sql`now()` },
        });
    },
    webhooks: (userId: number) =>
      db.select().from(userWebhooks).where(eq(userWebhooks.userId, userId)).orderBy(asc(userWebhooks.id)),
    async webhook(userId: number, id: number) {
      const [row] = await db
        .select()
        .from(userWebhooks)
        .where(and(eq(userWebhooks.userId, userId), eq(userWebhooks.id, id)));
      return row;
    },
    async countWebhooks(userId: number) {
      const [row] = await db.select({ n: count() }).from(userWebhooks).where(eq(userWebhooks.userId, userId));
      return row?.n ?? 0;
    },
    async addWebhook(values: typeof userWebhooks.$inferInsert) {
      const [row] = await db.insert(userWebhooks).values(values).returning();
      return row as typeof userWebhooks.$inferSelect;
    },
    async setWebhookEnabled(userId: number, id: number, enabled: boolean) {
      const [row] = await db
        .update(userWebhooks)
        .set({ enabled })
        .where(and(eq(userWebhooks.userId, userId), eq(userWebhooks.id, id)))
        .returning();
      return row ?? null;
    },
    async deleteWebhook(userId: number, id: number) {
      const gone = await db
        .delete(userWebhooks)
        .where(and(eq(userWebhooks.userId, userId), eq(userWebhooks.id, id)))
        .returning({ id: userWebhooks.id });
      return gone.length > 0;
    },
    /** The last `perWebhook` deliveries of each of these webhooks, newest first. */
    async deliveryLog(webhookIds: number[], perWebhook: number) {
      if (webhookIds.length === 0) return [];
      const ranked = db
        .select({
          row: notificationDeliveries.id,
          n: sql<number>`row_number() over (partition by ${notificationDeliveries.webhookId} order by ${notificationDeliveries.id} desc)`.as(
            'n',
          ),
        })
        .from(notificationDeliveries)
        .where(inArray(notificationDeliveries.webhookId, webhookIds))
        .as('ranked');
      return db
        .select({ d: notificationDeliveries })
        .from(notificationDeliveries)
        .innerJoin(ranked, eq(ranked.row, notificationDeliveries.id))
        .where(lte(ranked.n, perWebhook))
        .orderBy(desc(notificationDeliveries.id))
        .then((rows) => rows.map((r) => r.d));
    },
    /**
     * Claims up to `limit` due deliveries for this worker: pending, due, not leased by another
     * worker (or its lease ran out). The rows are locked with SKIP LOCKED while the lease is
     * written, so replicas claiming at once take different rows; each claim counts an attempt.
     */
    async claimDue(now: Date, leaseUntil: Date, token: string, limit: number) {
      const due = db
        .select({ id: notificationDeliveries.id })
        .from(notificationDeliveries)
        .where(
          and(
            eq(notificationDeliveries.status, 'pending'),
            or(isNull(notificationDeliveries.nextAttemptAt), lte(notificationDeliveries.nextAttemptAt, now)),
            or(isNull(notificationDeliveries.claimedUntil), lte(notificationDeliveries.claimedUntil, now)),
            // An SMS with a claim left over was maybe sent: abandonStaleSms settles it instead.
            or(eq(notificationDeliveries.channel, 'webhook'), isNull(notificationDeliveries.claimToken)),
          ),
        )
        .orderBy(asc(notificationDeliveries.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      return db
        .update(notificationDeliveries)
        .set({
          claimedUntil: leaseUntil,
          claimToken: token,
          attempts: sql`${notificationDeliveries.attempts} + 1`,
          lastAttemptAt: now,
        })
        .where(inArray(notificationDeliveries.id, due))
        .returning();
    },
    /** SMS whose worker died mid-send: maybe sent, so marked failed rather than sent again. */
    async abandonStaleSms(now: Date) {
      const gone = await db
        .update(notificationDeliveries)
        .set({
          status: 'failed',
          claimedUntil: null,
          claimToken: null,
          responseExcerpt: '发送结果未知，为免重复未再发送',
        })
        .where(
          and(
            eq(notificationDeliveries.channel, 'sms'),
            eq(notificationDeliveries.status, 'pending'),
            isNotNull(notificationDeliveries.claimToken),
            lte(notificationDeliveries.claimedUntil, now),
          ),
        )
        .returning({ id: notificationDeliveries.id });
      return gone.length;
    },
    /** Deliveries finished (last tried) before `before`: the log shows only the last ones. */
    async purgeFinished(before: Date) {
      const gone = await db
        .delete(notificationDeliveries)
        .where(
          and(
            ne(notificationDeliveries.status, 'pending'),
            sql`coalesce(${notificationDeliveries.lastAttemptAt}, ${notificationDeliveries.createdAt}) < ${before.toISOString()}::timestamptz`,
          ),
        )
        .returning({ id: notificationDeliveries.id });
      return gone.length;
    },
    /** Writes a try's outcome, only if this worker's claim is still the row's. */
    async finish(id: number, token: string, result: DeliveryResult) {
      const done = await db
        .update(notificationDeliveries)
        .set({ ...result, claimedUntil: null, claimToken: null })
        .where(and(eq(notificationDeliveries.id, id), eq(notificationDeliveries.claimToken, token)))
        .returning({ id: notificationDeliveries.id });
      return done.length > 0;
    },
    /** What sending these deliveries needs: the notice, the webhook, the owner's phone. */
    async contexts(ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({
          deliveryId: notificationDeliveries.id,
          notice: userNotices,
          webhook: userWebhooks,
          phone: users.phone,
        })
        .from(notificationDeliveries)
        .innerJoin(userNotices, eq(userNotices.id, notificationDeliveries.noticeId))
        .innerJoin(users, eq(users.id, notificationDeliveries.userId))
        .leftJoin(userWebhooks, eq(userWebhooks.id, notificationDeliveries.webhookId))
        .where(inArray(notificationDeliveries.id, ids));
    },
  };
}
