import { and, eq, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { idempotencyRequests } from './idempotency.tables.ts';

export type IdempotencyRow = typeof idempotencyRequests.$inferSelect;

export function createIdempotencyRepository({ db }: { db: DbOrTx }) {
  const t = idempotencyRequests;
  return {
    /** Inserts the claim; undefined when the (user, scope, key) is already there. */
    async claim(row: {
      userId: number;
      scope: string;
      key: string;
      requestHash: string;
      at: Date;
    }): Promise<IdempotencyRow | undefined> {
      const [r] = await db
        .insert(t)
        .values({
          userId: row.userId,
          scope: row.scope,
          key: row.key,
          requestHash: row.requestHash,
          startedAt: row.at,
          createdAt: row.at,
        })
        .onConflictDoNothing()
        .returning();
      return r;
    },
    async find(userId: number, scope: string, key: string): Promise<IdempotencyRow | undefined> {
      const [r] = await db
        .select()
        .from(t)
        .where(and(eq(t.userId, userId), eq(t.scope, scope), eq(t.key, key)))
        .limit(1);
      return r;
    },
    /** Takes over an abandoned claim, conditionally: of several replays only one wins it. */
    async takeOver(id: number, startedAt: Date, at: Date): Promise<boolean> {
      const rows = await db
        .update(t)
        .set({ startedAt: at })
        .where(and(eq(t.id, id), eq(t.startedAt, startedAt)))
        .returning({ id: t.id });
      return rows.length === 1;
    },
    async complete(id: number, status: number, body: string, at: Date): Promise<void> {
      await db
        .update(t)
        .set({ responseStatus: status, responseBody: body, completedAt: at })
        .where(eq(t.id, id));
    },
    /** Deletes up to `limit` rows created before `before`; answers how many. */
    async purge(before: Date, limit: number): Promise<number> {
      const old = db.select({ id: t.id }).from(t).where(lt(t.createdAt, before)).limit(limit);
      const rows = await db.delete(t).where(inArray(t.id, old)).returning({ id: t.id });
      return rows.length;
    },
  };
}
