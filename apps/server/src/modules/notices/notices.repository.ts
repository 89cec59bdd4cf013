import { and, desc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { userNotices } from './notices.tables.ts';

export function createNoticesRepository({ db }: { db: DbOrTx }) {
  return {
    async notify(values: typeof userNotices.$inferInsert) {
      await db.insert(userNotices).values(values);
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
