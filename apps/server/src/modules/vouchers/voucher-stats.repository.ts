import { and, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import { statusIs } from './vouchers.repository.ts';
import { vouchers } from './vouchers.tables.ts';

export interface VoucherFigures {
  totalValue: number;
  unused: number;
  used: number;
  expired: number;
  expiring: number;
}

type When = Date | Placeholder;
type Figures = Record<'value' | 'unused' | 'used' | 'expired' | 'expiring', string>;
const param = sql.placeholder;

/** The figures of the vouchers matching `where`, by the statuses' one definition (statusIs). */
const figuresOf = (where: SQL, now: When, expiringBy: When) => sql`
  select coalesce(sum(${vouchers.remaining}) filter (where ${statusIs('UNUSED', now)}), 0) as value,
         count(*) filter (where ${statusIs('UNUSED', now)}) as unused,
         count(*) filter (where ${statusIs('USED', now)}) as used,
         count(*) filter (where ${statusIs('EXPIRED', now)}) as expired,
         count(*) filter (where ${statusIs('UNUSED', now)} and ${vouchers.expiresAt} <= ${expiringBy}) as expiring
  from ${vouchers} where ${where}`;

/** The vouchers of one expiry day (the index on user and expiry reads just those). */
const ofDay = (userId: Placeholder, day: SQL) =>
  and(
    sql`${vouchers.userId} = ${userId}`,
    sql`${vouchers.expiresAt} >= ${day}`,
    sql`${vouchers.expiresAt} < ${day} + interval '1 day'`,
  ) as SQL;

/**
 * The wallet's figures (issue 33). A day wholly before `now` holds only expired or used vouchers,
 * one wholly after it only unused or used ones, and wholly before `expiringBy` as well, only
 * expiring ones: those come from the kept totals (voucher_day_totals). The two days that `now`
 * and `expiringBy` fall in are read voucher by voucher. One statement (one snapshot of both),
 * built and planned once per connection: building and planning it cost ten times its run.
 */
const figuresStatement = preparedStatement('voucher_figures', (db) => {
  const [userId, now, soon] = [param('userId'), param('now'), param('soon')];
  const nowDay = sql`voucher_expiry_day(${now})`;
  const soonDay = sql`voucher_expiry_day(${soon})`;
  const f = (column: string) => sql.raw(`f.${column}`);
  return db
    .select({
      value: sql<string>`${f('value')}`,
      unused: sql<string>`${f('unused')}`,
      used: sql<string>`${f('used')}`,
      expired: sql<string>`${f('expired')}`,
      expiring: sql<string>`${f('expiring')}`,
    })
    .from(sql`(
      with kept as (
        select coalesce(sum(live_value) filter (where day > ${now}), 0) as value,
               coalesce(sum(live) filter (where day > ${now}), 0) as unused,
               coalesce(sum(used), 0) as used,
               coalesce(sum(live) filter (where day < ${now}), 0) as expired,
               coalesce(sum(live) filter (where day > ${now} and day < ${soon}), 0) as expiring
        from voucher_day_totals
        where user_id = ${userId} and day <> ${nowDay} and day <> ${soonDay}),
      edges as (
        ${figuresOf(ofDay(userId, nowDay), now, soon)}
        union all
        ${figuresOf(ofDay(userId, soonDay), now, soon)})
      select (kept.value + (select sum(value) from edges))::text as value,
             (kept.unused + (select sum(unused) from edges))::text as unused,
             (kept.used + (select sum(used) from edges))::text as used,
             (kept.expired + (select sum(expired) from edges))::text as expired,
             (kept.expiring + (select sum(expiring) from edges))::text as expiring
      from kept) as f`);
});

const toFigures = (r: Figures | undefined): VoucherFigures => ({
  totalValue: Number(r?.value ?? 0),
  unused: Number(r?.unused ?? 0),
  used: Number(r?.used ?? 0),
  expired: Number(r?.expired ?? 0),
  expiring: Number(r?.expiring ?? 0),
});

export async function voucherFigures(
  db: DbOrTx,
  userId: number,
  now: Date,
  expiringBy: Date,
): Promise<VoucherFigures> {
  const [r] = await figuresStatement(db, { userId, now, soon: expiringBy });
  return toFigures(r);
}

/** The same figures from every voucher of the user: what the kept totals must always agree with. */
export async function voucherFiguresByScan(
  db: DbOrTx,
  userId: number,
  now: Date,
  expiringBy: Date,
): Promise<VoucherFigures> {
  const [r] = await rowsOf<Figures>(db, figuresOf(sql`${vouchers.userId} = ${userId}`, now, expiringBy));
  return toFigures(r);
}

/**
 * One batch of the compaction (voucher-stats.task.ts): folds each user's rows of a day into one
 * (dropping days that net to nothing), for up to `users` users with more than one row of a day.
 * One statement: a reader sees the rows before it or after it, never half. Rows the triggers
 * append meanwhile are not in its snapshot, so they are neither deleted nor counted.
 */
export async function compactDayTotalsBatch(
  tx: DbOrTx,
  users: number,
): Promise<{ gone: number; kept: number }> {
  const [r] = await rowsOf<{ gone: string; kept: string }>(
    tx,
    sql`with picked as (
          select distinct user_id from (
            select user_id from voucher_day_totals group by user_id, day having count(*) > 1
            limit ${users}) as p),
        gone as (
          delete from voucher_day_totals t using picked where t.user_id = picked.user_id
          returning t.user_id, t.day, t.live, t.live_value, t.used),
        kept as (
          insert into voucher_day_totals (user_id, day, live, live_value, used)
          select user_id, day, sum(live), sum(live_value), sum(used) from gone group by 1, 2
          having sum(live) <> 0 or sum(live_value) <> 0 or sum(used) <> 0
          returning 1)
        select (select count(*) from gone)::text as gone, (select count(*) from kept)::text as kept`,
  );
  return { gone: Number(r?.gone ?? 0), kept: Number(r?.kept ?? 0) };
}
