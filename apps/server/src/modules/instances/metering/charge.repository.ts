import { type SQL, sql } from 'drizzle-orm';
import { DOC_PREFIXES, docNoSql } from '../../../platform/doc-no.ts';
import { idArray, postedBySql } from './posted-by.repository.ts';

/**
 * The set-based charge of the given (locked) pay-as-you-go instances at `now`, as one statement
 * of named steps (`createMeteringRepository().charge` runs it): what is due, who pays, the
 * ledger rows with their balances after, each account once, `charged`, the hourly bill lines,
 * and a one-row summary of what it did.
 */
export function chargeStatement(ids: number[], now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const hour = sql.raw(`interval '1 hour'`);
  return sql`
    with
    -- 1. What is due: each instance's whole-fen posting by now less what it was charged.
    --    (Materialized and filtered after the primary-key lookups: no plan that scans every
    --    instance, whatever the statistics say.)
    accrual as materialized (
      select i.id, i.user_id, i.tenant_id, i.name, i.charged, i.hourly_rate, i.nogpu_rate, i.accrued_closed,
             i.running_since, i.billing_type, i.voucher_held, ${postedBySql('i', at)} as up_to,
             coalesce(i.nogpu_rate, i.hourly_rate) as rate,
             case when i.nogpu_rate is null then 'metering' else 'nogpu' end as line_kind
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
             p.available_after, p.frozen_after, p.key, 'instance', p.id::text,
             case when p.line_kind = 'nogpu' then '无卡模式 ' else '按量计费 ' end || p.name, ${at}
      from posting p
      where p.is_new and p.from_balance > 0
      returning id, user_id, amount
    ),
    -- 5. Each account once: its balance moves by the sum of its new rows, and what it spent by
    --    as much (the hourly bill lines below add exactly each new row's amount: hours tile the range).
    account as (
      update accounts acc set available = acc.available + s.total, spent = acc.spent - s.total,
        updated_at = ${at}
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
    --    instance's lines of its current kind end (按量扣费, or 无卡模式 while it runs without
    --    GPUs: issue 30), or where it last started running if later; one line per UTC
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
        where b.instance_id = p.id and b.meter_hour is not null and b.kind = p.line_kind
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
      select s.id, s.tenant_id, s.user_id, s.entry_id, s.charged, s.up_to, h.hour, s.rate, s.line_kind,
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
        hourly_rate, period_start, period_end, amount, voucher_amount, ledger_entry_id, created_at, record_no)
      select h.tenant_id, h.user_id, h.id, 'hourly', h.line_kind, h.hour, h.rate, h.period_start, h.period_end,
             h.total - h.by_voucher, h.by_voucher,
             case when h.from_balance > 0 then h.entry_id end, h.period_start,
             ${docNoSql(DOC_PREFIXES.bill, sql`h.period_start`)}
      from hour_split h
      where h.line_id is null
      on conflict (instance_id, meter_hour, kind) do update set
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
}
