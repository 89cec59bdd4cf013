import type { BillQuery } from '@gpu/shared';
import { ORDER_BILL_KINDS } from '@gpu/shared';
import { shanghaiDayRange } from '@gpu/shared/time';
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { talliedPage } from '../../../platform/db/paging.ts';
import { preparedStatement } from '../../../platform/db/prepared.ts';
import { type TallyDef, talliedCount, totalOf } from '../../../platform/db/tallies.ts';
import { billingRecords, instances } from '../../instances/instances.tables.ts';
import { dailySpend, daySpendAndMonth, runningOf } from './spend.repository.ts';

/** A customer's bill lines per kind and billing type: the bills and orders lists' totals. */
export const BILL_LINES_TALLY: TallyDef = {
  name: 'bill-lines',
  table: 'billing_records',
  userColumn: 'user_id',
  tenantColumn: 'tenant_id',
  k1: 'kind',
  k2: 'billing_type',
  // All bills are in id order: a page in the middle of them seeks to a bookmark.
  bookmarks: true,
};

/** Newest (highest id) first: the order billing_records_user serves. */
const NEWEST_FIRST = [desc(billingRecords.id)];

const columns = {
  id: billingRecords.id,
  recordNo: billingRecords.recordNo,
  instanceId: billingRecords.instanceId,
  instanceName: instances.name,
  billingType: billingRecords.billingType,
  kind: billingRecords.kind,
  periodStart: billingRecords.periodStart,
  periodEnd: billingRecords.periodEnd,
  amount: billingRecords.amount,
  voucherAmount: billingRecords.voucherAmount,
  hourlyRate: billingRecords.hourlyRate,
  createdAt: billingRecords.createdAt,
};
type BillRow = SelectResultFields<typeof columns>;

const param = sql.placeholder;
/**
 * The two screens as they open (all lines; "my orders"), each one statement built and planned
 * once per connection (issue 33: building and planning it was most of such a page's cost). The
 * orders' kinds are written out, so the planner matches billing_records_orders' condition.
 */
const openingPage = (name: string, kinds: readonly string[] | null) =>
  preparedStatement(name, (db) => {
    const w = and(
      eq(billingRecords.userId, param('userId')),
      eq(billingRecords.tenantId, param('tenantId')),
      kinds ? sql`${billingRecords.kind} in (${sql.raw(kinds.map((k) => `'${k}'`).join(', '))})` : undefined,
    );
    const { total, ids } = talliedPage(BILL_LINES_TALLY, {
      who: { userId: param('userId'), tenantId: param('tenantId') },
      keys: { k1: kinds ?? undefined },
      where: w,
      forward: sql`${billingRecords.id} desc`,
      backward: sql`${billingRecords.id} asc`,
    });
    return db
      .select({ ...columns, total })
      .from(billingRecords)
      .innerJoin(instances, eq(instances.id, billingRecords.instanceId))
      .where(inArray(billingRecords.id, ids))
      .orderBy(...NEWEST_FIRST);
  });
const allLinesPage = openingPage('bills_page_all', null);
const ordersPage = openingPage('bills_page_orders', ORDER_BILL_KINDS);
/** The same kinds, whatever their order or repeats. */
const sameKinds = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === b.length && a.every((k) => b.includes(k));

export function createBillsRepository({ db }: { db: DbOrTx }) {
  const where = (userId: number, tenantId: number, q: Partial<BillQuery>) => {
    const days = shanghaiDayRange(q.from, q.to);
    return and(
      eq(billingRecords.userId, userId),
      eq(billingRecords.tenantId, tenantId),
      q.billingType ? eq(billingRecords.billingType, q.billingType) : undefined,
      q.kind?.length ? inArray(billingRecords.kind, q.kind) : undefined,
      q.instanceId ? eq(billingRecords.instanceId, q.instanceId) : undefined,
      q.recordNo ? eq(billingRecords.recordNo, q.recordNo) : undefined,
      days.from ? gte(billingRecords.createdAt, days.from) : undefined,
      days.toExclusive ? lt(billingRecords.createdAt, days.toExclusive) : undefined,
    );
  };
  const base = () =>
    db.select(columns).from(billingRecords).innerJoin(instances, eq(instances.id, billingRecords.instanceId));

  return {
    async page(userId: number, tenantId: number, q: BillQuery) {
      const plain = !q.billingType && !q.instanceId && !q.recordNo && !q.from && !q.to;
      const opening = !plain
        ? null
        : !q.kind?.length
          ? allLinesPage
          : sameKinds(q.kind, ORDER_BILL_KINDS)
            ? ordersPage
            : null;
      if (opening) {
        const values = { userId, tenantId, limit: q.size, offset: (q.page - 1) * q.size };
        const found = (await opening(db, values)) as (BillRow & { total: number })[];
        const rows = found.map(({ total: _, ...row }) => row);
        if (found[0]) return { rows, total: Number(found[0].total) };
      }
      const w = where(userId, tenantId, q);
      // The page's ids from the index alone (however deep the page), then only their rows.
      const ids = db
        .select({ id: billingRecords.id })
        .from(billingRecords)
        .where(w)
        .orderBy(...NEWEST_FIRST)
        .limit(q.size)
        .offset((q.page - 1) * q.size);
      // Filtered by kind and billing type at most (the screens' tabs): the tally's total.
      const total =
        !q.instanceId && !q.recordNo && !q.from && !q.to
          ? talliedCount(
              BILL_LINES_TALLY,
              { userId, tenantId },
              { k1: q.kind, k2: q.billingType ? [q.billingType] : undefined },
              w,
            )
          : sql<number>`(select count(*) from billing_records where ${w})::int`.mapWith(Number);
      // The total rides along with the page's rows: one round trip, not two (issue 33).
      const found = await db
        .select({ ...columns, total })
        .from(billingRecords)
        .innerJoin(instances, eq(instances.id, billingRecords.instanceId))
        .where(inArray(billingRecords.id, ids))
        .orderBy(...NEWEST_FIRST);
      return { rows: found.map(({ total: _, ...row }) => row), total: await totalOf(db, found, total) };
    },
    /**
     * Everything matching, newest first, in chunks by id (keyset: each chunk is one short indexed
     * query, whatever the total), so an export streams without a cap and without holding it all.
     */
    async *stream(userId: number, tenantId: number, q: Partial<BillQuery>, chunk = 1_000) {
      const after = (before: number) => {
        const rows = base()
          .where(and(where(userId, tenantId, q), lt(billingRecords.id, before)))
          .orderBy(...NEWEST_FIRST)
          .limit(chunk)
          .then((r) => r);
        // Awaited below; marked handled now so that a download the client dropped (the
        // generator never resumed) leaves no unhandled rejection behind.
        rows.catch(() => undefined);
        return rows;
      };
      let next = after(Number.MAX_SAFE_INTEGER);
      while (true) {
        const rows = await next;
        const last = rows.at(-1);
        const more = last !== undefined && rows.length === chunk;
        // The next chunk is read while the caller writes this one (the database works meanwhile).
        if (more) next = after(last.id);
        yield rows;
        if (!more) return;
      }
    },
    async one(userId: number, tenantId: number, id: number) {
      const [row] = await base().where(and(where(userId, tenantId, {}), eq(billingRecords.id, id)));
      return row;
    },
    daySpendAndMonth: (userId: number, tenantId: number, p: { dayStart: Date; monthStart: Date }) =>
      daySpendAndMonth(db, userId, tenantId, p),
    daily: (userId: number, tenantId: number, since: Date) => dailySpend(db, userId, tenantId, since),
    running: (userId: number, tenantId: number) => runningOf(db, userId, tenantId),
  };
}
