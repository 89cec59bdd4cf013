import { FEN, type InstanceStatus } from '@gpu/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';

/** Rows of `db.execute` (node-postgres and PGlite both answer `{ rows }`). */
const resultRows = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

/** A bigint[] parameter: one value however many ids (drizzle would spread an array). */
const idArray = (ids: number[]) => sql`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::bigint[]`;

/**
 * What pay-as-you-go has posted by `at` (issue 10), for the instance row aliased `alias`: the
 * accrual of `accruedAt` (instances.models.ts) — closed periods plus
 * floor(rate × whole seconds / 3600) of the running one — floored to whole fen as `floorToFen`.
 * Exact integer arithmetic, so it equals the JS figure for every row (metering.property.test.ts).
 * The one SQL copy of the formula: metering charges by it and the back office's pending figures
 * (operations.repository.ts) read it.
 */
export function postedBySql(alias: string, at: SQL | Date): SQL {
  const i = sql.raw(alias);
  const when = at instanceof Date ? sql`${at.toISOString()}::timestamptz` : at;
  // Whole seconds as bigint, then integer division (truncation = floor: all non-negative).
  const seconds = sql`greatest(0, floor(extract(epoch from (${when} - ${i}.running_since))))::bigint`;
  const accrued = sql`(${i}.accrued_closed + coalesce(${i}.hourly_rate * ${seconds} / 3600, 0))`;
  return sql`(${accrued} / ${sql.raw(String(FEN))} * ${sql.raw(String(FEN))})`;
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
  /**
   * Ledger rows of this run not inserted (the caller throws). Always 0 since the insert has no
   * ON CONFLICT (issue 15): a key another transaction posted meanwhile (a bug: our instances are
   * locked) fails the statement on the unique index instead, rolling back the same way.
   */
  raced: number;
  /** The owners' available balances after the charge (metering's arrears check). */
  available: Map<number, number>;
}

/**
 * Set-based metering (issue 15): a handful of statements per batch whatever its size. The
 * ledger rules are those of `postLedgerEntries` (ledger.ts); the former one-at-a-time JS path
 * is kept as the reference in metering.reference.test-helpers.ts, and the property test checks
 * both give the same rows.
 */
export function createMeteringRepository({ db }: { db: DbOrTx }) {
  return {
    /**
     * The next pay-as-you-go instances (ascending id, after `afterId`) with at least a whole fen
     * due at `now`, row-locked; rows another transaction holds are skipped (another replica is
     * charging them, or a power off is). `ids` instead locks just those rows when still due.
     */
    async lockDue(now: Date, q: { afterId: number; limit: number } | { ids: number[] }) {
      const which = 'ids' in q ? sql`i.id = any(${idArray(q.ids)})` : sql`i.id > ${q.afterId}`;
      // One row of three arrays rather than a row per instance: a batch is thousands of rows,
      // and reading them one object each costs PGlite (in this process) more than the lock.
      const rows = await db.execute(sql`
        select coalesce(array_agg(l.id order by l.id), '{}') as ids,
               coalesce(array_agg(l.user_id order by l.id), '{}') as user_ids,
               coalesce(array_agg(l.status order by l.id), '{}') as statuses
        from (
          select i.id, i.user_id, i.status from instances i
          where ${which} and i.billing_type = 'hourly' and i.status in ('RUNNING', 'STOPPING')
            and i.running_since is not null and ${postedBySql('i', now)} > i.charged
          order by i.id
          ${'limit' in q ? sql`limit ${q.limit}` : sql``}
          for update skip locked
        ) l`);
      const [r] = resultRows<{ ids: (string | number)[]; user_ids: number[]; statuses: string[] }>(rows);
      return (r?.ids ?? []).map((id, k) => ({
        id: Number(id),
        userId: Number(r?.user_ids[k]),
        status: r?.statuses[k] as InstanceStatus,
      }));
    },
    /** Locks these owners' accounts in ascending user id (ledger.ts: after the instance rows). */
    async lockAccounts(userIds: number[]) {
      if (userIds.length === 0) return;
      await db.execute(sql`
        select a.user_id from accounts a
        where a.user_id = any(${idArray(userIds)})
        order by a.user_id
        for update`);
    },

    /**
     * Charges the given (locked) pay-as-you-go instances what they posted by `now` and were not
     * charged yet: ledger rows, account balances, `charged`, hourly bill lines, in one statement
     * of named steps. The caller holds the instance rows and then the accounts
     * (`lockAccounts`), and throws — rolling everything back — unless the outcome is clean.
     */
    async charge(ids: number[], now: Date): Promise<MeteringOutcome> {
      const empty = {
        due: 0,
        posted: 0,
        charged: 0,
        withoutAccount: 0,
        keyMismatches: 0,
        raced: 0,
        available: new Map<number, number>(),
      };
      if (ids.length === 0) return empty;
      const at = sql`${now.toISOString()}::timestamptz`;
      const hour = sql.raw(`interval '1 hour'`);
      const query = sql`
        with
        -- 1. What is due: each instance's whole-fen posting by now less what it was charged.
        --    (Materialized and filtered after the primary-key lookups: no plan that scans every
        --    instance, whatever the statistics say.)
        accrual as materialized (
          select i.id, i.user_id, i.tenant_id, i.name, i.charged, i.hourly_rate, i.accrued_closed,
                 i.running_since, i.billing_type, i.voucher_held, ${postedBySql('i', at)} as up_to
          from instances i
          where i.id = any(${idArray(ids)})
        ),
        -- 2. Who pays: the instance's voucher hold first (voucher-hold.ts, splitHold), the
        --    balance the rest. A range the hold pays whole posts no ledger row.
        due as (
          select s.*, s.amount - s.from_voucher as from_balance
          from (
            select d.*, least(d.amount, greatest(d.voucher_held, 0)) as from_voucher
            from (
              select a.*, a.up_to - a.charged as amount,
                     'instance:' || a.id || ':meter:' || a.charged || '-' || a.up_to as key
              from accrual a
              where a.billing_type = 'hourly' and a.up_to > a.charged
            ) d
          ) s
        ),
        -- 3. Idempotency: a key already posted was charged and billed by an earlier run (or a
        --    concurrent one that committed first): not again (is_new false). The same key for
        --    another movement is a bug, flagged so the caller refuses (sameOrThrow in ledger.ts).
        --    Every later step keeps one row per due instance: steps are never joined to each
        --    other (a join of two CTEs has no statistics and may be planned as a nested loop).
        checked as (
          select d.*, r.idempotency_key is null as is_new,
                 r.idempotency_key is not null and (r.user_id <> d.user_id or r.kind <> 'charge'
                   or r.amount <> -d.from_balance or r.frozen_amount <> 0) as key_mismatch
          from due d
          left join lateral (
            select l.idempotency_key, l.user_id, l.kind, l.amount, l.frozen_amount
            from ledger_entries l
            where d.from_balance > 0 and l.idempotency_key = d.key
          ) r on true
        ),
        -- 4. Balances after each posting: postings of one account apply in instance-id order,
        --    so each row's available_after is the locked balance less the running sum of new
        --    postings. (A due instance without an account drops out here: counted, the caller throws.)
        running as (
          select c.*, case when c.is_new then c.from_balance else 0 end as paid,
                 acc.tenant_id as account_tenant_id, acc.frozen as frozen_after,
                 acc.available - sum(case when c.is_new then c.from_balance else 0 end) over (
                   partition by c.user_id order by c.id rows between unbounded preceding and current row
                 ) as available_after
          from checked c
          join accounts acc on acc.user_id = c.user_id
        ),
        --    Ledger ids drawn in instance-id order (as the rows of one postLedgerEntries call), so
        --    each account's latest row carries its final balance; the bill lines refer to them.
        posting as (
          select r.*, case when r.is_new then nextval('ledger_entries_id_seq') end as entry_id
          from (select * from running order by id) r
        ),
        entry as (
          insert into ledger_entries (id, user_id, tenant_id, kind, amount, frozen_amount,
            available_after, frozen_after, idempotency_key, reference_type, reference_id, memo, created_at)
          select p.entry_id, p.user_id, p.account_tenant_id, 'charge', -p.from_balance, 0,
                 p.available_after, p.frozen_after, p.key, 'instance', p.id::text, '按量计费 ' || p.name, ${at}
          from posting p
          where p.is_new and p.from_balance > 0
          returning id, user_id, amount
        ),
        -- 5. Each account once: its balance moves by the sum of its new rows.
        account as (
          update accounts acc set available = acc.available + s.total, updated_at = ${at}
          from (select user_id, sum(amount) as total from entry group by user_id) s
          where acc.user_id = s.user_id
          returning acc.user_id, acc.available
        ),
        -- The owners' balances after it: for the arrears check, without another round trip.
        balance as (
          select o.user_id, coalesce(u.available, acc.available) as available
          from (select distinct user_id from accrual) o
          join accounts acc on acc.user_id = o.user_id
          left join account u on u.user_id = o.user_id
        ),
        -- 6. What each instance has been charged so far (a prior key included: it was posted),
        --    and what its voucher hold paid now moves to what the voucher has paid (a range
        --    posted by an earlier run spent its hold then).
        charged as (
          update instances i set charged = p.up_to,
            voucher_held = i.voucher_held - case when p.is_new then p.from_voucher else 0 end,
            voucher_used = i.voucher_used + case when p.is_new then p.from_voucher else 0 end,
            updated_at = now()
          from posting p
          where i.id = p.id
          returning i.id
        ),
        -- 7. Hourly bill lines of what was posted now (hourlyLines): the span starts where the
        --    instance's lines end, or where it last started running if later; one line per UTC
        --    clock hour up to now. Each hour gets what was posted by its end (by now for the last)
        --    less what was posted by its start, so the lines tile and ignore how runs fall.
        span as (
          select p.*, m.line_id, m.line_hour,
                 case
                   when p.running_since is null then ${at}
                   when m.until is null or m.until < p.running_since then p.running_since
                   else m.until
                 end as raw_start
          from posting p
          left join lateral (
            select b.id as line_id, b.meter_hour as line_hour, b.period_end as until from billing_records b
            where b.instance_id = p.id and b.meter_hour is not null
            order by b.meter_hour desc limit 1
          ) m on true
          where p.is_new
        ),
        span_start as (
          select s.*, case when s.raw_start > ${at} then ${at} else s.raw_start end as start
          from span s
        ),
        --    What was posted by an hour's start is what the hour before it posted by its end, or
        --    what was charged before this run for the span's first hour (the only one starting
        --    at or before the span's start): each hour is computed alone, no window, no sort.
        hours as (
          select s.id, s.tenant_id, s.user_id, s.entry_id, s.charged, s.up_to, h.hour,
                 case when h.hour = s.line_hour then s.line_id end as line_id,
                 s.from_voucher, s.from_balance,
                 greatest(s.start, h.hour) as period_start,
                 case when h.hour + ${hour} >= ${at} then ${at} else h.hour + ${hour} end as period_end,
                 case when h.hour + ${hour} >= ${at} then s.up_to
                      else least(s.up_to, greatest(s.charged, ${postedBySql('s', sql`(h.hour + ${hour})`)}))
                 end as posted_by,
                 case when h.hour <= s.start then s.charged
                      else least(s.up_to, greatest(s.charged, ${postedBySql('s', sql`h.hour`)}))
                 end as posted_from
          from span_start s
          cross join lateral generate_series(
            date_bin(${hour}, s.start, timestamptz '2000-01-01 00:00:00+00'), ${at}, ${hour}
          ) as h(hour)
          where h.hour < ${at} or h.hour = date_bin(${hour}, s.start, timestamptz '2000-01-01 00:00:00+00')
        ),
        --    The hold pays the earliest hours first: an hour's voucher part is what the hold has
        --    left after the hours before it (together they posted posted_from − charged), at most
        --    the hour's total.
        hour_split as (
          select h.*, h.posted_by - h.posted_from as total,
                 least(h.posted_by - h.posted_from,
                       greatest(0, h.from_voucher - (h.posted_from - h.charged))) as by_voucher
          from hours h
        ),
        --    Only the span's first hour may have its line already: the instance's latest, which
        --    grows in place (a plain update by id, the path of 59 runs in 60). The other hours are
        --    new lines; the upsert is kept for the one case where a line exists that is not the
        --    latest (a clock that went back across an hour), as it merged before.
        line_update as (
          update billing_records b set
            amount = b.amount + (h.total - h.by_voucher),
            voucher_amount = b.voucher_amount + h.by_voucher,
            period_start = least(b.period_start, h.period_start),
            period_end = greatest(b.period_end, h.period_end),
            ledger_entry_id = coalesce(case when h.from_balance > 0 then h.entry_id end, b.ledger_entry_id)
          from hour_split h
          where h.line_id is not null and b.id = h.line_id
          returning 1
        ),
        line_insert as (
          insert into billing_records (tenant_id, user_id, instance_id, billing_type, kind, meter_hour,
            period_start, period_end, amount, voucher_amount, ledger_entry_id, created_at)
          select h.tenant_id, h.user_id, h.id, 'hourly', 'metering', h.hour, h.period_start, h.period_end,
                 h.total - h.by_voucher, h.by_voucher,
                 case when h.from_balance > 0 then h.entry_id end, h.period_start
          from hour_split h
          where h.line_id is null
          on conflict (instance_id, meter_hour) do update set
            amount = billing_records.amount + excluded.amount,
            voucher_amount = billing_records.voucher_amount + excluded.voucher_amount,
            period_start = least(billing_records.period_start, excluded.period_start),
            period_end = greatest(billing_records.period_end, excluded.period_end),
            ledger_entry_id = coalesce(excluded.ledger_entry_id, billing_records.ledger_entry_id)
          returning 1
        )
        select d.due, e.posted, e.charged, d.due - p.posting as without_account, p.to_post - e.posted as raced,
               k.key_mismatches, b.available
        from (select count(*) as due from due) d,
             (select count(*) as posting, count(*) filter (where is_new and from_balance > 0) as to_post
              from posting) p,
             (select count(*) as posted, coalesce(-sum(amount), 0) as charged from entry) e,
             (select count(*) filter (where key_mismatch) as key_mismatches from checked) k,
             (select coalesce(json_agg(json_build_array(user_id, available)), '[]') as available from balance) b`;
      // (`charged` and the `line_` steps run whether or not the summary reads them: data-modifying
      // steps always run to completion.)
      const rows = await db.execute<{
        due: string;
        posted: string;
        charged: string;
        without_account: string;
        key_mismatches: string;
        raced: string;
        available: [number, number][] | string;
      }>(query);
      const [first] = resultRows<Record<string, unknown>>(rows);
      if (!first) return empty;
      return {
        due: Number(first.due),
        posted: Number(first.posted),
        charged: Number(first.charged),
        withoutAccount: Number(first.without_account),
        keyMismatches: Number(first.key_mismatches),
        raced: Number(first.raced),
        available: new Map(
          (typeof first.available === 'string' ? JSON.parse(first.available) : first.available) as [
            number,
            number,
          ][],
        ),
      };
    },
  };
}
