import { shanghaiDate, shanghaiDayStart } from '@gpu/shared/time';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { preparedStatement } from '../../../platform/db/prepared.ts';
import { ACCRUING } from '../../instances/index.ts';
import { billingRecords, instances } from '../../instances/instances.tables.ts';

/**
 * The console home's spend figures (今日/本月消费, the 30-day chart, what runs): each one
 * statement built and planned once per connection. Built each time, Drizzle's building and
 * PostgreSQL's planning cost more than the indexed reads themselves (issue 33).
 */
const param = sql.placeholder;
/** A Shanghai midnight, from the one offset rule (@gpu/shared/time): the daily chart's bins start there. */
const SHANGHAI_MIDNIGHT = shanghaiDayStart('2000-01-01').toISOString();

/** The customer's lines since `since`, read by billing_records_user_time. */
const linesSince = and(
  eq(billingRecords.userId, param('userId')),
  eq(billingRecords.tenantId, param('tenantId')),
  gte(billingRecords.createdAt, param('since')),
);

/** Today's and this month's spend in one read of the month's lines (today lies within the month). */
const daySpendAndMonthStatement = preparedStatement('bills_spend_day_month', (db) =>
  db
    .select({
      day: sql<number>`coalesce(sum(${billingRecords.amount}) filter (where ${billingRecords.createdAt} >= ${param('dayStart')}), 0)`.mapWith(
        Number,
      ),
      month: sql<number>`coalesce(sum(${billingRecords.amount}), 0)`.mapWith(Number),
    })
    .from(billingRecords)
    .where(linesSince),
);

const dailyStatement = preparedStatement('bills_daily', (db) => {
  // Grouped by the bin itself, made a number only per day: extract() gives numeric, and
  // computing and hashing one per line was three fifths of the statement (issue 33).
  const days = db
    .select({
      bin: sql`date_bin(interval '1 day', ${billingRecords.createdAt}, ${SHANGHAI_MIDNIGHT}::timestamptz)`.as(
        'bin',
      ),
      amount: sql<number>`sum(${billingRecords.amount})`.as('amount'),
    })
    .from(billingRecords)
    .where(linesSince)
    .groupBy(sql`1`)
    .as('days');
  return db
    .select({
      dayStart: sql<number>`(extract(epoch from ${days.bin}) * 1000)::float8`.mapWith(Number),
      amount: sql<number>`${days.amount}`.mapWith(Number),
    })
    .from(days);
});

// The statuses written out, not bound: one text whatever runs (ACCRUING is a constant).
const accruing = sql.raw(ACCRUING.map((s) => `'${s}'`).join(', '));
const runningStatement = preparedStatement('bills_running', (db) =>
  db
    .select()
    .from(instances)
    .where(
      and(
        eq(instances.userId, param('userId')),
        eq(instances.tenantId, param('tenantId')),
        sql`${instances.status} in (${accruing})`,
      ),
    ),
);

/** The customer's spend since `dayStart` and since `monthStart` (the earlier of the two). */
export async function daySpendAndMonth(
  db: DbOrTx,
  userId: number,
  tenantId: number,
  p: { dayStart: Date; monthStart: Date },
) {
  const [r] = await daySpendAndMonthStatement(db, {
    userId,
    tenantId,
    since: p.monthStart,
    dayStart: p.dayStart,
  });
  return { day: r?.day ?? 0, month: r?.month ?? 0 };
}

/**
 * Spend per Shanghai calendar day since `since`. Days are binned at Shanghai midnight
 * (a fixed offset, @gpu/shared/time): half the cost of a time-zone conversion and text per line.
 */
export async function dailySpend(db: DbOrTx, userId: number, tenantId: number, since: Date) {
  const rows = await dailyStatement(db, { userId, tenantId, since });
  // In day order here: ordered in SQL, the plan sorted every line before summing them.
  return rows
    .sort((a, b) => a.dayStart - b.dayStart)
    .map((r) => ({ day: shanghaiDate(r.dayStart), amount: r.amount }));
}

/** The customer's instances that accrue (running or stopping). */
export const runningOf = (db: DbOrTx, userId: number, tenantId: number) =>
  runningStatement(db, { userId, tenantId });
