import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { blockchainOrders, simulatedChainTxs } from './blockchain.tables.ts';

export type BlockchainOrderRow = typeof blockchainOrders.$inferSelect;

export function createBlockchainRepository({ db }: { db: DbOrTx }) {
  const own = (userId: number) => eq(blockchainOrders.userId, userId);
  const first = async <T>(q: Promise<T[]>) => (await q)[0];

  return {
    /** Null when the transaction already backs an order (unique chain + hash). */
    async insert(row: typeof blockchainOrders.$inferInsert): Promise<BlockchainOrderRow | null> {
      const [created] = await db.insert(blockchainOrders).values(row).onConflictDoNothing().returning();
      return created ?? null;
    },
    byNo: (userId: number, orderNo: string) =>
      first(
        db
          .select()
          .from(blockchainOrders)
          .where(and(own(userId), eq(blockchainOrders.orderNo, orderNo))),
      ),
    byId: (userId: number, id: number) =>
      first(
        db
          .select()
          .from(blockchainOrders)
          .where(and(own(userId), eq(blockchainOrders.id, id))),
      ),
    byTx: (userId: number, txHash: string) =>
      first(
        db
          .select()
          .from(blockchainOrders)
          .where(and(own(userId), eq(blockchainOrders.txHash, txHash))),
      ),
    anyById: (id: number) => first(db.select().from(blockchainOrders).where(eq(blockchainOrders.id, id))),
    anyByNo: (orderNo: string) =>
      first(db.select().from(blockchainOrders).where(eq(blockchainOrders.orderNo, orderNo))),
    byNos: (userId: number, orderNos: string[]) =>
      db
        .select({
          id: blockchainOrders.id,
          orderNo: blockchainOrders.orderNo,
          status: blockchainOrders.status,
        })
        .from(blockchainOrders)
        .where(and(own(userId), inArray(blockchainOrders.orderNo, orderNos))),

    async list(userId: number, page: { page: number; size: number }) {
      const rows = await db
        .select()
        .from(blockchainOrders)
        .where(own(userId))
        .orderBy(desc(blockchainOrders.createdAt), desc(blockchainOrders.id))
        .limit(page.size)
        .offset((page.page - 1) * page.size);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(blockchainOrders)
        .where(own(userId));
      return { rows, total: count?.n ?? 0 };
    },

    async stats(userId: number) {
      const [row] = await db
        .select({
          total: sql<number>`count(*)::int`,
          pending: sql<number>`count(*) filter (where ${blockchainOrders.status} = 'PENDING')::int`,
          confirmed: sql<number>`count(*) filter (where ${blockchainOrders.status} = 'CONFIRMED')::int`,
          failed: sql<number>`count(*) filter (where ${blockchainOrders.status} = 'FAILED')::int`,
          credited: sql<string>`coalesce(sum(${blockchainOrders.creditAmount}) filter (where ${blockchainOrders.status} = 'CONFIRMED'), 0)`,
        })
        .from(blockchainOrders)
        .where(own(userId));
      return row;
    },

    async countPending(userId: number) {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(blockchainOrders)
        .where(and(own(userId), eq(blockchainOrders.status, 'PENDING')));
      return row?.n ?? 0;
    },

    /** Pending orders not asked about since `checkedBefore`, least recently checked first. */
    pending: (checkedBefore: Date, limit: number) =>
      db
        .select()
        .from(blockchainOrders)
        .where(
          and(
            eq(blockchainOrders.status, 'PENDING'),
            or(isNull(blockchainOrders.checkedAt), lt(blockchainOrders.checkedAt, checkedBefore)),
          ),
        )
        .orderBy(sql`${blockchainOrders.checkedAt} asc nulls first`, asc(blockchainOrders.id))
        .limit(limit),

    lockById: (id: number) =>
      first(db.select().from(blockchainOrders).where(eq(blockchainOrders.id, id)).for('update')),

    async update(id: number, patch: Partial<typeof blockchainOrders.$inferInsert>) {
      await db
        .update(blockchainOrders)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(blockchainOrders.id, id));
    },

    simulatedTx: (chain: string, txHash: string) =>
      first(
        db
          .select()
          .from(simulatedChainTxs)
          .where(and(eq(simulatedChainTxs.chain, chain), eq(simulatedChainTxs.txHash, txHash))),
      ),
    /** The simulated chain decides once: a later click changes nothing. */
    async putSimulatedTx(row: typeof simulatedChainTxs.$inferInsert) {
      await db.insert(simulatedChainTxs).values(row).onConflictDoNothing();
    },
  };
}
