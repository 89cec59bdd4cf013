import type { RechargeOrderStatus } from '@gpu/shared';
import { and, count, desc, eq, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { talliedPage } from '../../platform/db/paging.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { type TallyDef, talliedCount, totalOf } from '../../platform/db/tallies.ts';
import { rechargeOrders } from './payments.tables.ts';

export type RechargeOrderRow = typeof rechargeOrders.$inferSelect;
export type NewRechargeOrder = typeof rechargeOrders.$inferInsert;

export interface OrderFilter {
  tenantId: number;
  userId: number;
  status?: RechargeOrderStatus;
  from?: Date;
  toExclusive?: Date;
}

/** A customer's recharge orders: the list's total when it is not filtered. */
export const RECHARGE_ORDERS_TALLY: TallyDef = {
  name: 'recharge-orders',
  table: 'recharge_orders',
  userColumn: 'user_id',
  tenantColumn: 'tenant_id',
};

const NEWEST_FIRST = [desc(rechargeOrders.createdAt), desc(rechargeOrders.id)];
const param = sql.placeholder;

/**
 * The list as it opens (no filter): one statement built and planned once per connection, its
 * total riding along (issue 33: building and planning it was most of the page's cost).
 */
const openingPage = preparedStatement('recharge_orders_page', (db) => {
  const where = and(
    eq(rechargeOrders.tenantId, param('tenantId')),
    eq(rechargeOrders.userId, param('userId')),
  );
  const { total, ids } = talliedPage(RECHARGE_ORDERS_TALLY, {
    who: { userId: param('userId'), tenantId: param('tenantId') },
    where,
    forward: sql`${rechargeOrders.createdAt} desc, ${rechargeOrders.id} desc`,
    backward: sql`${rechargeOrders.createdAt} asc, ${rechargeOrders.id} asc`,
  });
  return db
    .select({ order: rechargeOrders, total })
    .from(rechargeOrders)
    .where(inArray(rechargeOrders.id, ids))
    .orderBy(...NEWEST_FIRST);
});

export function createPaymentsRepository({ db }: { db: DbOrTx }) {
  const owned = (tenantId: number, userId: number) =>
    and(eq(rechargeOrders.tenantId, tenantId), eq(rechargeOrders.userId, userId));

  return {
    async insert(row: NewRechargeOrder): Promise<RechargeOrderRow> {
      const [o] = await db.insert(rechargeOrders).values(row).returning();
      if (!o) throw new Error('recharge order insert returned nothing');
      return o;
    },
    async byOrderNo(orderNo: string): Promise<RechargeOrderRow | undefined> {
      const [o] = await db.select().from(rechargeOrders).where(eq(rechargeOrders.orderNo, orderNo)).limit(1);
      return o;
    },
    async ownedByOrderNo(tenantId: number, userId: number, orderNo: string) {
      const [o] = await db
        .select()
        .from(rechargeOrders)
        .where(and(owned(tenantId, userId), eq(rechargeOrders.orderNo, orderNo)))
        .limit(1);
      return o;
    },
    async ownedById(tenantId: number, userId: number, id: number) {
      const [o] = await db
        .select()
        .from(rechargeOrders)
        .where(and(owned(tenantId, userId), eq(rechargeOrders.id, id)))
        .limit(1);
      return o;
    },
    async page(filter: OrderFilter, page: number, size: number) {
      if (!filter.status && !filter.from && !filter.toExclusive) {
        const values = {
          tenantId: filter.tenantId,
          userId: filter.userId,
          limit: size,
          offset: (page - 1) * size,
        };
        const found = (await openingPage(db, values)) as { order: RechargeOrderRow; total: number }[];
        if (found[0]) return { list: found.map((r) => r.order), total: Number(found[0].total) };
      }
      const conds: (SQL | undefined)[] = [owned(filter.tenantId, filter.userId)];
      if (filter.status) conds.push(eq(rechargeOrders.status, filter.status));
      if (filter.from) conds.push(gte(rechargeOrders.createdAt, filter.from));
      if (filter.toExclusive) conds.push(lt(rechargeOrders.createdAt, filter.toExclusive));
      const where = and(...conds);
      const who = { userId: filter.userId, tenantId: filter.tenantId };
      const total =
        filter.status || filter.from || filter.toExclusive
          ? sql<number>`(select count(*) from recharge_orders where ${where})::int`.mapWith(Number)
          : talliedCount(RECHARGE_ORDERS_TALLY, who, {}, where);
      // The page's ids from the index alone (however deep the page), then only their rows, the
      // total riding along (one round trip).
      const ids = db
        .select({ id: rechargeOrders.id })
        .from(rechargeOrders)
        .where(where)
        .orderBy(...NEWEST_FIRST)
        .limit(size)
        .offset((page - 1) * size);
      const found = await db
        .select({ order: rechargeOrders, total })
        .from(rechargeOrders)
        .where(inArray(rechargeOrders.id, ids))
        .orderBy(...NEWEST_FIRST);
      return { list: found.map((r) => r.order), total: await totalOf(db, found, total) };
    },
    /** Pending orders of a user not yet expired, and all orders since `since` (creation limits). */
    async recentCounts(userId: number, now: Date, since: Date) {
      const [pending] = await db
        .select({ n: count() })
        .from(rechargeOrders)
        .where(
          and(
            eq(rechargeOrders.userId, userId),
            eq(rechargeOrders.status, 'PENDING'),
            gte(rechargeOrders.expiresAt, now),
          ),
        );
      const [recent] = await db
        .select({ n: count() })
        .from(rechargeOrders)
        .where(and(eq(rechargeOrders.userId, userId), gte(rechargeOrders.createdAt, since)));
      return { pending: pending?.n ?? 0, recent: recent?.n ?? 0 };
    },
    async setQrCode(id: number, qrCode: string, at: Date) {
      await db.update(rechargeOrders).set({ qrCode, updatedAt: at }).where(eq(rechargeOrders.id, id));
    },
    /**
     * PENDING (or one of `from`) → SUCCESS, only if the amount matches. The row when this call
     * made the change; undefined when someone else did, or the order is not in such a state.
     */
    async markPaid(
      orderNo: string,
      p: { amount: number; tradeNo: string; at: Date; from: RechargeOrderStatus[] },
    ) {
      const [o] = await db
        .update(rechargeOrders)
        .set({ status: 'SUCCESS', providerTradeNo: p.tradeNo, paidAt: p.at, updatedAt: p.at })
        .where(
          and(
            eq(rechargeOrders.orderNo, orderNo),
            eq(rechargeOrders.amount, p.amount),
            inArray(rechargeOrders.status, p.from),
          ),
        )
        .returning();
      return o;
    },
    /** PENDING → CLOSED or FAIL; false when the order was no longer pending. */
    async finishUnpaid(orderNo: string, status: 'CLOSED' | 'FAIL', reason: string, at: Date) {
      const rows = await db
        .update(rechargeOrders)
        .set({ status, failReason: reason, closedAt: at, updatedAt: at })
        .where(and(eq(rechargeOrders.orderNo, orderNo), eq(rechargeOrders.status, 'PENDING')))
        .returning({ id: rechargeOrders.id });
      return rows.length > 0;
    },
    /**
     * Claims the right to ask the provider about a pending order now: at most one replica per
     * interval gets true.
     */
    async claimQuery(orderNo: string, now: Date, intervalMs: number): Promise<boolean> {
      const rows = await db
        .update(rechargeOrders)
        .set({ lastQueriedAt: now })
        .where(
          and(
            eq(rechargeOrders.orderNo, orderNo),
            eq(rechargeOrders.status, 'PENDING'),
            or(
              isNull(rechargeOrders.lastQueriedAt),
              lte(rechargeOrders.lastQueriedAt, new Date(now.getTime() - intervalMs)),
            ),
          ),
        )
        .returning({ id: rechargeOrders.id });
      return rows.length > 0;
    },
    expiredPending: (now: Date, limit: number) =>
      db
        .select()
        .from(rechargeOrders)
        .where(and(eq(rechargeOrders.status, 'PENDING'), lte(rechargeOrders.expiresAt, now)))
        .orderBy(rechargeOrders.expiresAt)
        .limit(limit),
    pendingOf: (provider: string, createdBefore: Date, now: Date, limit: number) =>
      db
        .select()
        .from(rechargeOrders)
        .where(
          and(
            eq(rechargeOrders.status, 'PENDING'),
            eq(rechargeOrders.provider, provider),
            lte(rechargeOrders.createdAt, createdBefore),
            gte(rechargeOrders.expiresAt, now),
          ),
        )
        .orderBy(rechargeOrders.createdAt)
        .limit(limit),
  };
}
