import { FEN } from '@gpu/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../app/db/client.ts';

/** A bigint[] parameter: one value however many ids (drizzle would spread an array). */
const idArray = (ids: number[]) => sql`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::bigint[]`;

/**
 * `postedBy` (metering.ts) in SQL for the instance row aliased `alias` at the time `at`: the
 * accrual of `accruedAt` (instances.models.ts) — closed periods plus
 * floor(rate × whole seconds / 3600) of the running one — floored to whole fen as `floorToFen`.
 * Exact numeric arithmetic, so it equals the JS figure for every row (the equivalence test).
 */
export function postedBySql(alias: string, at: SQL | Date): SQL {
  const i = sql.raw(alias);
  const when = at instanceof Date ? sql`${at.toISOString()}::timestamptz` : at;
  const accrued = sql`(${i}.accrued_closed + case when ${i}.running_since is null then 0 else floor(${i}.hourly_rate * floor(greatest(0, extract(epoch from (${when} - ${i}.running_since)))) / 3600) end)`;
  return sql`(floor(${accrued} / ${sql.raw(String(FEN))}) * ${sql.raw(String(FEN))})::bigint`;
}

export interface MeteringOutcome {
  /** Charges that had something due (posted now or found posted by an earlier run). */
  due: number;
  /** Ledger rows inserted now, and the total they charged (positive units). */
  posted: number;
  charged: number;
  /** Due charges whose account row is missing (a bug: the caller throws). */
  withoutAccount: number;
  /** Keys already posted for a different movement (a bug: the caller throws). */
  keyMismatches: number;
  /** Rows another transaction posted meanwhile (a bug: our instances are locked; the caller throws). */
  raced: number;
}

/**
 * Set-based metering (issue 15): a handful of statements per batch whatever its size. The
 * rules are those of `postLedgerEntries` (ledger.ts) and `hourlyLines` (metering.ts); the
 * property test checks both paths give the same rows.
 */
export function createMeteringRepository({ db }: { db: DbOrTx }) {
  return {
    /**
     * Locks, in ascending user id (the lock order of ledger.ts: after the instance rows), the
     * accounts of these instances' owners that have something due at `now`.
     */
    async lockDueAccounts(ids: number[], now: Date) {
      if (ids.length === 0) return;
      await db.execute(sql`
        select a.user_id from accounts a
        where a.user_id in (
          select i.user_id from instances i
          where i.id = any(${idArray(ids)}) and i.billing_type = 'hourly'
            and ${postedBySql('i', now)} > i.charged)
        order by a.user_id
        for update`);
    },

    /**
     * Charges the given (locked) pay-as-you-go instances what they posted by `now` and were not
     * charged yet: ledger rows, account balances, `charged`, hourly bill lines, in one statement
     * of named steps. The caller holds the instance rows and then the accounts
     * (`lockDueAccounts`), and throws — rolling everything back — unless the outcome is clean.
     */
    async charge(ids: number[], now: Date): Promise<MeteringOutcome> {
      const empty = { due: 0, posted: 0, charged: 0, withoutAccount: 0, keyMismatches: 0, raced: 0 };
      if (ids.length === 0) return empty;
      const at = sql`${now.toISOString()}::timestamptz`;
      const hour = sql.raw(`interval '1 hour'`);
      const rows = await db.execute<{
        due: string;
        posted: string;
        charged: string;
        without_account: string;
        key_mismatches: string;
        raced: string;
      }>(sql`
        with
        -- 1. What is due: each instance's whole-fen posting by now less what it was charged.
        accrual as (
          select i.id, i.user_id, i.tenant_id, i.name, i.charged, i.hourly_rate, i.accrued_closed,
                 i.running_since, ${postedBySql('i', at)} as up_to
          from instances i
          where i.id = any(${idArray(ids)}) and i.billing_type = 'hourly'
        ),
        due as (
          select a.*, a.up_to - a.charged as amount,
                 'instance:' || a.id || ':meter:' || a.charged || '-' || a.up_to as key
          from accrual a
          where a.up_to > a.charged
        ),
        -- 2. What the balance pays: all of it (a voucher part would come off here first).
        to_pay as (
          select d.*, d.amount as from_balance from due d
        ),
        -- 3. Idempotency: a key already posted was charged and billed by an earlier run (or a
        --    concurrent one that committed first): not again. The same key for another movement
        --    is a bug, counted so the caller refuses (sameOrThrow in ledger.ts).
        prior as (
          select l.idempotency_key, l.user_id, l.kind, l.amount, l.frozen_amount
          from ledger_entries l
          where l.idempotency_key in (select key from to_pay)
        ),
        fresh as (
          select p.* from to_pay p
          where not exists (select 1 from prior r where r.idempotency_key = p.key)
        ),
        -- 4. Balances after each posting: postings of one account apply in instance-id order,
        --    so each row's available_after is the locked balance less the running sum.
        posting as (
          select f.*, acc.tenant_id as account_tenant_id, acc.frozen as frozen_after,
                 acc.available - sum(f.from_balance) over (
                   partition by f.user_id order by f.id rows between unbounded preceding and current row
                 ) as available_after
          from fresh f
          join accounts acc on acc.user_id = f.user_id
        ),
        entry as (
          insert into ledger_entries (user_id, tenant_id, kind, amount, frozen_amount,
            available_after, frozen_after, idempotency_key, reference_type, reference_id, memo, created_at)
          select p.user_id, p.account_tenant_id, 'charge', -p.from_balance, 0,
                 p.available_after, p.frozen_after, p.key, 'instance', p.id::text, '按量计费 ' || p.name, ${at}
          from posting p
          order by p.id
          on conflict (idempotency_key) do nothing
          returning id, idempotency_key, user_id, amount
        ),
        -- 5. Each account once: its balance moves by the sum of its new rows.
        account as (
          update accounts acc set available = acc.available + s.total, updated_at = ${at}
          from (select user_id, sum(amount) as total from entry group by user_id) s
          where acc.user_id = s.user_id
          returning acc.user_id
        ),
        -- 6. What each instance has been charged so far (a prior key included: it was posted).
        charged as (
          update instances i set charged = d.up_to, updated_at = now()
          from due d
          where i.id = d.id
          returning i.id
        ),
        -- 7. Hourly bill lines of what was posted now (hourlyLines): the span starts where the
        --    instance's lines end, or where it last started running if later; one line per UTC
        --    clock hour up to now. Each hour gets what was posted by its end (by now for the last)
        --    less what was posted by its start, so the lines tile and ignore how runs fall.
        span as (
          select p.*, e.id as entry_id,
                 case
                   when p.running_since is null then ${at}
                   when m.until is null or m.until < p.running_since then p.running_since
                   else m.until
                 end as raw_start
          from posting p
          join entry e on e.idempotency_key = p.key
          left join lateral (
            select b.period_end as until from billing_records b
            where b.instance_id = p.id and b.meter_hour is not null
            order by b.meter_hour desc limit 1
          ) m on true
        ),
        span_start as (
          select s.*, case when s.raw_start > ${at} then ${at} else s.raw_start end as start
          from span s
        ),
        hours as (
          select s.id, s.tenant_id, s.user_id, s.entry_id, s.charged, s.up_to, s.start, h.hour,
                 h.hour + ${hour} >= ${at} as is_last,
                 greatest(s.start, h.hour) as period_start,
                 case when h.hour + ${hour} >= ${at} then ${at} else h.hour + ${hour} end as period_end,
                 case when h.hour + ${hour} >= ${at} then s.up_to
                      else least(s.up_to, greatest(s.charged, ${postedBySql('s', sql`(h.hour + ${hour})`)}))
                 end as posted_by
          from span_start s
          cross join lateral generate_series(
            date_bin(${hour}, s.start, timestamptz '2000-01-01 00:00:00+00'), ${at}, ${hour}
          ) as h(hour)
          where h.hour < ${at} or h.hour = date_bin(${hour}, s.start, timestamptz '2000-01-01 00:00:00+00')
        ),
        line as (
          insert into billing_records (tenant_id, user_id, instance_id, billing_type, kind, meter_hour,
            period_start, period_end, amount, ledger_entry_id, created_at)
          select h.tenant_id, h.user_id, h.id, 'hourly', 'metering', h.hour, h.period_start, h.period_end,
                 h.posted_by - coalesce(lag(h.posted_by) over (partition by h.id order by h.hour), h.charged),
                 h.entry_id, h.period_start
          from hours h
          order by h.id, h.hour
          on conflict (instance_id, meter_hour) do update set
            amount = billing_records.amount + excluded.amount,
            period_start = least(billing_records.period_start, excluded.period_start),
            period_end = greatest(billing_records.period_end, excluded.period_end),
            ledger_entry_id = excluded.ledger_entry_id
          returning 1
        )
        select
          (select count(*) from due) as due,
          (select count(*) from entry) as posted,
          (select coalesce(-sum(amount), 0) from entry) as charged,
          (select count(*) from fresh) - (select count(*) from posting) as without_account,
          (select count(*) from posting) - (select count(*) from entry) as raced,
          (select count(*) from prior r join to_pay p on p.key = r.idempotency_key
            where r.user_id <> p.user_id or r.kind <> 'charge' or r.amount <> -p.from_balance
              or r.frozen_amount <> 0) as key_mismatches,
          (select count(*) from account) + (select count(*) from charged) + (select count(*) from line) as touched`);
      const r = (rows as unknown as { rows?: unknown[] }).rows ?? (rows as unknown as unknown[]);
      const first = (r as Record<string, string | number>[])[0];
      if (!first) return empty;
      return {
        due: Number(first.due),
        posted: Number(first.posted),
        charged: Number(first.charged),
        withoutAccount: Number(first.without_account),
        keyMismatches: Number(first.key_mismatches),
        raced: Number(first.raced),
      };
    },
  };
}
