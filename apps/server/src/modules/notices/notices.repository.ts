import { and, desc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { userNotices } from './notices.tables.ts';

export function createNoticesRepository({ db }: { db: DbOrTx }) {
  return {
    /**
     * Writes a notice once: with a `dedupeKey` already written for this user it does nothing and
     * returns null, so only the first writer fans the event out to SMS and webhooks.
     */
    async notify(values: typeof userNotices.$inferInsert): Promise<number | null> {
      const [row] = await db
        .insert(userNotices)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: userNotices.id });
      return row?.id ?? null;
    },
    notices: (userId: number, unreadOnly: boolean, limit: number) =>
      db
        .select()
        .from(userNotices)
        .where(and(eq(userNotices.userId, userId), unreadOnly ? isNull(userNotices.readAt) : undefined))
        .orderBy(desc(userNotices.id))
        .limit(limit),
    async markRead(userId: number, at: Date, id?: number) {
      await db
        .update(userNotices)
        .set({ readAt: at })
        .where(
          and(
            eq(userNotices.userId, userId),
            isNull(userNotices.readAt),
            id !== undefined ? eq(userNotices.id, id) : undefined,
          ),
        );
    },
  };
}
