import type { BillingType, InstanceStatus } from '@gpu/shared';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { postedBySql } from '../instances/metering/posted-by.repository.ts';
import { userNotices } from './operations.tables.ts';

/** Both drivers answer `execute` with `{ rows }`; numbers of bigint sums come as text. */
async function rowsOf<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
const n = (v: unknown) => Number(v ?? 0);
const escapeLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * What metering would charge now, per pay-as-you-go instance: metering's own posted-by figure
 * (whole fen) less what it charged. Not the finer accrual: a balance warning counts only money
 * that will leave the account.
 */
const PENDING = (now: Date) => sql`greatest(0, ${postedBySql('i', now)} - i.charged)`;
/** Running pay-as-you-go instances per user: their hourly cost and what they accrued uncharged. */
const BURN = (
  now: Date,
) => sql`select i.user_id, sum(i.hourly_rate) as rate, count(*) as n, sum(${PENDING(now)}) as pending
  from instances i
  where i.billing_type = 'hourly' and i.status in ('RUNNING', 'STOPPING') and i.running_since is not null
  group by i.user_id`;

export interface InstanceFilter {
  id?: number;
  userId?: number;
  hostId?: number;
  status?: InstanceStatus[];
  billingType?: BillingType;
  keyword?: string;
}

export interface AdminInstanceRow {
  id: number;
  name: string;
  status: InstanceStatus;
  user_id: number;
  user_phone: string;
  tenant_name: string;
  host_id: number;
  host_name: string;
  region_name: string;
  gpu_model: string;
  gpu_count: number;
  gpu_indices: number[];
  billing_type: BillingType;
  hourly_rate: string;
  charged: string;
  image: string;
  created_at: string | Date;
  running_since: string | Date | null;
  stopped_at: string | Date | null;
  expires_at: string | Date | null;
  stop_reason: string | null;
  total: number;
}

/** The SQL of the back office's operations screens: read-only views over users, accounts, instances. */
export function createOperationsRepository({ db }: { db: DbOrTx }) {
  return {
    /** Users whose balance, net of uncharged accrual, covers less than `hours` of their running instances. */
    async balanceWarnings(now: Date, hours: number, page: { page: number; size: number }) {
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`with b as (${BURN(now)})
        select u.id, u.phone, u.username, t.name as tenant_name, a.available::text as available,
          b.rate::text as rate, b.n::int as n, b.pending::text as pending, count(*) over ()::int as total
        from b join users u on u.id = b.user_id join accounts a on a.user_id = b.user_id
          join tenants t on t.id = u.tenant_id
        where b.rate > 0 and a.available - b.pending < b.rate * ${hours}
        order by (a.available - b.pending)::numeric / b.rate, u.id
        limit ${page.size} offset ${(page.page - 1) * page.size}`,
      );
      return {
        total: n(rows[0]?.total),
        rows: rows.map((r) => ({
          userId: n(r.id),
          phone: String(r.phone),
          username: String(r.username),
          tenantName: String(r.tenant_name),
          available: n(r.available),
          rate: n(r.rate),
          runningInstances: n(r.n),
          pending: n(r.pending),
        })),
      };
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

    async users(
      f: { keyword?: string; tenantId?: number; from?: Date; toExclusive?: Date },
      page: { page: number; size: number },
      sort: { by: 'createdAt' | 'available' | 'totalSpend'; order: 'asc' | 'desc' } = {
        by: 'createdAt',
        order: 'desc',
      },
    ) {
      const column = {
        createdAt: sql`u.id`,
        available: sql`coalesce(a.available, 0)`,
        totalSpend: sql`spend_units`,
      }[sort.by];
      const direction = sort.order === 'asc' ? sql`asc` : sql`desc`;
      const where = sql.join(
        [
          sql`true`,
          f.keyword
            ? sql`(u.phone ilike ${escapeLike(f.keyword)} or u.username ilike ${escapeLike(f.keyword)})`
            : null,
          f.tenantId ? sql`u.tenant_id = ${f.tenantId}` : null,
          f.from ? sql`u.created_at >= ${f.from.toISOString()}::timestamptz` : null,
          f.toExclusive ? sql`u.created_at < ${f.toExclusive.toISOString()}::timestamptz` : null,
        ].filter((x): x is SQL => x !== null),
        sql` and `,
      );
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`select u.id, u.phone, u.username, u.tenant_id, t.name as tenant_name, u.status,
          coalesce(a.available, 0)::text as available, coalesce(a.frozen, 0)::text as frozen,
          s.spend_units::text as spend,
          (select count(*) from instances i where i.user_id = u.id)::int as instances,
          (select count(*) from instances i where i.user_id = u.id and i.status = 'RUNNING')::int as running,
          u.created_at, u.last_login_at, count(*) over ()::int as total
        from users u join tenants t on t.id = u.tenant_id left join accounts a on a.user_id = u.id
          cross join lateral (select coalesce(sum(br.amount), 0) as spend_units
            from billing_records br where br.user_id = u.id) s
        where ${where}
        order by ${column} ${direction}, u.id desc
        limit ${page.size} offset ${(page.page - 1) * page.size}`,
      );
      return { rows, total: n(rows[0]?.total) };
    },

    async userTotals(dayStart: Date) {
      const [r] = await rowsOf<Record<string, unknown>>(
        db,
        sql`select (select count(*) from users)::int as users,
          (select count(*) from users where created_at >= ${dayStart.toISOString()}::timestamptz)::int as new_today,
          (select count(distinct user_id) from instances where status = 'RUNNING')::int as active,
          (select count(*) from users where status <> 'ACTIVE')::int as disabled,
          (select coalesce(sum(available + frozen), 0) from accounts)::text as balance,
          (select coalesce(sum(amount), 0) from billing_records)::text as spend`,
      );
      return {
        users: n(r?.users),
        newToday: n(r?.new_today),
        active: n(r?.active),
        disabled: n(r?.disabled),
        balance: n(r?.balance),
        spend: n(r?.spend),
      };
    },

    async userExists(id: number) {
      const rows = await rowsOf<{ id: number }>(db, sql`select id from users where id = ${id}`);
      return rows.length > 0;
    },

    async instances(f: InstanceFilter, page: { page: number; size: number }) {
      const where = sql.join(
        [
          sql`true`,
          f.id ? sql`i.id = ${f.id}` : null,
          f.userId ? sql`i.user_id = ${f.userId}` : null,
          f.hostId ? sql`i.host_id = ${f.hostId}` : null,
          f.billingType ? sql`i.billing_type = ${f.billingType}` : null,
          f.status?.length
            ? sql`i.status in (${sql.join(
                f.status.map((s) => sql`${s}`),
                sql`, `,
              )})`
            : null,
          f.keyword
            ? sql`(i.name ilike ${escapeLike(f.keyword)} or u.phone ilike ${escapeLike(f.keyword)}
                or i.gpu_model ilike ${escapeLike(f.keyword)})`
            : null,
        ].filter((x): x is SQL => x !== null),
        sql` and `,
      );
      const rows = await rowsOf<AdminInstanceRow>(
        db,
        sql`select i.id::int as id, i.name, i.status, i.user_id, u.phone as user_phone, t.name as tenant_name,
          i.host_id, h.name as host_name, r.name as region_name, i.gpu_model, i.gpu_count, i.gpu_indices,
          i.billing_type, i.hourly_rate::text as hourly_rate, i.charged::text as charged, i.image,
          i.created_at, i.running_since, i.stopped_at, i.expires_at, i.stop_reason, count(*) over ()::int as total
        from instances i join users u on u.id = i.user_id join tenants t on t.id = i.tenant_id
          join hosts h on h.id = i.host_id join regions r on r.id = i.region_id
        where ${where}
        order by i.id desc
        limit ${page.size} offset ${(page.page - 1) * page.size}`,
      );
      return { rows, total: n(rows[0]?.total) };
    },

    async instanceCounts(dayStart: Date) {
      const byStatus = await rowsOf<{ status: string; n: number }>(
        db,
        sql`select status, count(*)::int as n from instances group by status`,
      );
      const gpus = await rowsOf<{ model: string; total: number; busy: number }>(
        db,
        sql`select model, count(*)::int as total, count(instance_id)::int as busy
        from host_gpus group by model order by model`,
      );
      const [money] = await rowsOf<Record<string, unknown>>(
        db,
        sql`select (select coalesce(-sum(amount), 0) from ledger_entries
            where kind in ('charge', 'refund') and created_at >= ${dayStart.toISOString()}::timestamptz)::text as revenue,
          (select coalesce(sum(hourly_rate), 0) from instances
            where billing_type = 'hourly' and status in ('RUNNING', 'STOPPING'))::text as burn`,
      );
      return {
        byStatus: Object.fromEntries(byStatus.map((r) => [r.status, n(r.n)])),
        gpus: gpus.map((g) => ({ model: g.model, total: n(g.total), busy: n(g.busy) })),
        revenue: n(money?.revenue),
        burn: n(money?.burn),
      };
    },

    // ---- notices

    async notify(values: typeof userNotices.$inferInsert) {
      await db.insert(userNotices).values(values);
    },
    notices: (userId: number, unreadOnly: boolean, limit: number) =>
      db
        .select()
        .from(userNotices)
        .where(and(eq(userNotices.userId, userId), unreadOnly ? isNull(userNotices.readAt) : undefined))
        .orderBy(desc(userNotices.id))
        .limit(limit),
    async markRead(userId: number, at: Date, id?: number) {
      await db
        .update(userNotices)
        .set({ readAt: at })
        .where(
          and(
            eq(userNotices.userId, userId),
            isNull(userNotices.readAt),
            id !== undefined ? eq(userNotices.id, id) : undefined,
          ),
        );
    },
  };
}
