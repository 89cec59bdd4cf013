import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { postedBySql } from '../instances/index.ts';
import { n, rowsOf } from './operations.repository.ts';

/**
 * What metering would charge now, per pay-as-you-go instance: metering's own posted-by figure
 * (whole fen) less what it charged. Not the finer accrual: a balance warning counts only money
 * that will leave the account.
 */
const PENDING = (now: Date) => sql`greatest(0, ${postedBySql('i', now)} - i.charged)`;
/** Running pay-as-you-go instances per user: their hourly cost and what they accrued uncharged. */
const BURN = (
  now: Date,
) => sql`select i.user_id, sum(coalesce(i.nogpu_rate, i.hourly_rate)) as rate, count(*) as n, sum(${PENDING(now)}) as pending
  from instances i
  where i.billing_type = 'hourly' and i.status in ('RUNNING', 'STOPPING') and i.running_since is not null
  group by i.user_id`;

/** The SQL of the balance monitor: what users can still pay for, and the ledger against the balances. */
export function createBalanceRepository({ db }: { db: DbOrTx }) {
  return {
    /** Users whose balance, net of uncharged accrual, covers less than `hours` of their running instances. */
    async balanceWarnings(now: Date, hours: number) {
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`with b as (${BURN(now)})
        select u.id, u.phone, u.username, t.name as tenant_name, a.available::text as available,
          b.rate::text as rate, b.n::int as n, b.pending::text as pending
        from b join users u on u.id = b.user_id join accounts a on a.user_id = b.user_id
          join tenants t on t.id = u.tenant_id
        where b.rate > 0 and a.available - b.pending < b.rate * ${hours}
        order by (a.available - b.pending)::numeric / b.rate, u.id`,
      );
      return rows.map((r) => ({
        userId: n(r.id),
        phone: String(r.phone),
        username: String(r.username),
        tenantName: String(r.tenant_name),
        available: n(r.available),
        rate: n(r.rate),
        runningInstances: n(r.n),
        pending: n(r.pending),
      }));
    },

    async balanceTotals(now: Date, hours: number, dayStart: Date) {
      const [r] = await rowsOf<Record<string, unknown>>(
        db,
        sql`with b as (${BURN(now)})
        select
          (select count(*) from accounts)::int as accounts,
          (select coalesce(sum(available), 0) from accounts)::text as available,
          (select coalesce(sum(frozen), 0) from accounts)::text as frozen,
          (select count(*) from accounts where available < 0)::int as arrears_users,
          (select coalesce(sum(-available), 0) from accounts where available < 0)::text as arrears_amount,
          (select count(*) from b join accounts a on a.user_id = b.user_id
            where b.rate > 0 and a.available - b.pending < b.rate * ${hours})::int as warning_users,
          (select coalesce(sum(n), 0) from b)::int as running,
          (select coalesce(sum(rate), 0) from b)::text as burn,
          (select coalesce(sum(amount), 0) from ledger_entries
            where kind = 'recharge' and created_at >= ${dayStart.toISOString()}::timestamptz)::text as recharge_today`,
      );
      return {
        accounts: n(r?.accounts),
        available: n(r?.available),
        frozen: n(r?.frozen),
        arrearsUsers: n(r?.arrears_users),
        arrearsAmount: n(r?.arrears_amount),
        warningUsers: n(r?.warning_users),
        running: n(r?.running),
        burn: n(r?.burn),
        rechargeToday: n(r?.recharge_today),
      };
    },

    /** Σ of all balances against Σ of the whole ledger. */
    async ledgerTotals() {
      const [r] = await rowsOf<Record<string, unknown>>(
        db,
        sql`select (select count(*) from accounts)::int as accounts,
          (select coalesce(sum(available), 0) from accounts)::text as available,
          (select coalesce(sum(frozen), 0) from accounts)::text as frozen,
          (select coalesce(sum(amount), 0) from ledger_entries)::text as ledger_available,
          (select coalesce(sum(frozen_amount), 0) from ledger_entries)::text as ledger_frozen`,
      );
      return {
        accounts: n(r?.accounts),
        available: n(r?.available),
        frozen: n(r?.frozen),
        ledgerAvailable: n(r?.ledger_available),
        ledgerFrozen: n(r?.ledger_frozen),
      };
    },

    async phonesOf(userIds: number[]): Promise<Map<number, string>> {
      if (userIds.length === 0) return new Map();
      const rows = await rowsOf<{ id: number; phone: string }>(
        db,
        sql`select id, phone from users where id in (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
      return new Map(rows.map((r) => [n(r.id), r.phone]));
    },
  };
}
