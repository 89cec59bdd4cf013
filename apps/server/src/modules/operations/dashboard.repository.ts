import { addDays, shanghaiDayStart } from '@gpu/shared/time';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { hostGpus } from '../hosts/hosts.tables.ts';
import { countGpuStates, type GpuStateCounts, sumGpuStates } from '../hosts/index.ts';
import { n, rowsOf } from './operations.repository.ts';

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
/** `and <column> = tenant` when the dashboard is for one tenant, nothing otherwise. */
const ofTenant = (column: SQL, tenantId?: number) => (tenantId ? sql` and ${column} = ${tenantId}` : sql``);
/** `and <host id> in the tenant's hosts` (tenant_hosts: the hosts it may sell). */
const ofTenantHosts = (column: SQL, tenantId?: number) =>
  tenantId ? sql` and ${column} in (select host_id from tenant_hosts where tenant_id = ${tenantId})` : sql``;

/** GPU counts with 空闲 named as the dashboard shows it. */
const states = (c: GpuStateCounts) => ({
  total: c.total,
  free: c.idle,
  occupied: c.occupied,
  reserved: c.reserved,
});
/** The tenant's hosts (tenant_hosts: the hosts it may sell), as a condition on host_gpus. */
const gpusOfTenant = (tenantId?: number) =>
  tenantId
    ? sql`${hostGpus.hostId} in (select host_id from tenant_hosts where tenant_id = ${tenantId})`
    : undefined;

const figures = (r: Record<string, unknown>) => ({
  recharge: n(r.recharge),
  consumption: n(r.consumption),
  revenue: n(r.revenue),
});

/**
 * The trend's figures per Shanghai day (and tenant, when `tenantId` is not given) of ledger rows
 * and bill lines created in [from, toExclusive): one index range each (`*_time`).
 */
function dailyTotals(from: Date, toExclusive: Date | null, tenantId?: number) {
  const day = (col: SQL) => sql`to_char(${col} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
  const within = (col: SQL) =>
    sql`${col} >= ${from.toISOString()}::timestamptz${toExclusive ? sql` and ${col} < ${toExclusive.toISOString()}::timestamptz` : sql``}`;
  return sql`select day, tenant_id, sum(recharge) as recharge, sum(consumption) as consumption,
      sum(revenue) as revenue
    from (
      select ${day(sql`l.created_at`)} as day, l.tenant_id,
        coalesce(sum(l.amount) filter (where l.kind = 'recharge'), 0) as recharge, 0 as consumption,
        coalesce(-sum(l.amount) filter (where l.kind in ('charge', 'refund')), 0) as revenue
      from ledger_entries l
      where ${within(sql`l.created_at`)}
        and l.kind in ('recharge', 'charge', 'refund')${ofTenant(sql`l.tenant_id`, tenantId)}
      group by 1, 2
      union all
      select ${day(sql`b.created_at`)}, b.tenant_id, 0, sum(b.amount + b.voucher_amount), 0
      from billing_records b
      where ${within(sql`b.created_at`)}${ofTenant(sql`b.tenant_id`, tenantId)}
      group by 1, 2
    ) d
    group by day, tenant_id`;
}

/** The SQL of the admin dashboard: every figure an aggregate, money in units. */
export function createDashboardRepository({ db }: { db: DbOrTx }) {
  return {
    /**
     * Per Shanghai day from `from`: recharges, consumption (bills incl. vouchers), revenue (cash
     * net of refunds). Days rolled up (`rollUpDay`) are read from ops_daily_totals; from the first
     * day that is not, the ledger and bill lines are summed as they are.
     */
    async trend(from: string, tenantId?: number) {
      const rolled = await rowsOf<Record<string, unknown>>(
        db,
        sql`select r.day::text as day, sum(t.recharge)::text as recharge,
          sum(t.consumption)::text as consumption, sum(t.revenue)::text as revenue
        from ops_rolled_days r left join ops_daily_totals t on t.day = r.day${ofTenant(sql`t.tenant_id`, tenantId)}
        where r.day >= ${from}::date
        group by r.day`,
      );
      const out = new Map(rolled.map((r) => [String(r.day), figures(r)]));
      // The first day of the period without a roll-up: it and every later day are summed live
      // (a rolled day among them keeps its roll-up).
      let live = from;
      while (out.has(live)) live = addDays(live, 1);
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`select day, sum(recharge)::text as recharge, sum(consumption)::text as consumption,
          sum(revenue)::text as revenue
        from (${dailyTotals(shanghaiDayStart(live), null, tenantId)}) t group by day`,
      );
      for (const r of rows) if (!out.has(String(r.day))) out.set(String(r.day), figures(r));
      return out;
    },

    /**
     * Writes one Shanghai day's figures per tenant and marks the day rolled up (the caller's
     * transaction, holding the day's lock, holds both); false for a day already rolled up.
     */
    async rollUpDay(day: string): Promise<boolean> {
      const marked = await rowsOf(db, sql`select 1 from ops_rolled_days where day = ${day}::date`);
      if (marked.length > 0) return false;
      const rows = dailyTotals(shanghaiDayStart(day), shanghaiDayStart(addDays(day, 1)));
      await db.execute(sql`insert into ops_daily_totals (day, tenant_id, recharge, consumption, revenue)
        select day::date, tenant_id, recharge::bigint, consumption::bigint, revenue::bigint from (${rows}) d
        on conflict do nothing`);
      await db.execute(sql`insert into ops_rolled_days (day) values (${day}::date) on conflict do nothing`);
      return true;
    },

    /** Which of these days are rolled up already. */
    async rolledDays(from: string, toExclusive: string): Promise<Set<string>> {
      const rows = await rowsOf<{ day: string }>(
        db,
        sql`select day::text as day from ops_rolled_days where day >= ${from}::date and day < ${toExclusive}::date`,
      );
      return new Set(rows.map((r) => r.day));
    },

    /** Occupancy by the hosts module's one definition of 空闲/占用/保留. */
    async occupancyByModel(tenantId?: number) {
      const byModel = sumGpuStates(await countGpuStates(db, gpusOfTenant(tenantId)), (r) => r.model);
      return [...byModel]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([model, c]) => ({ model, ...states(c) }));
    },

    async occupancyByHost(tenantId?: number) {
      const byHost = sumGpuStates(await countGpuStates(db, gpusOfTenant(tenantId)), (r) => r.hostId);
      const names = await rowsOf<Record<string, unknown>>(
        db,
        sql`select h.id, h.name, r.name as region_name from hosts h join regions r on r.id = h.region_id
        where true${ofTenantHosts(sql`h.id`, tenantId)}
        order by r.name, h.name`,
      );
      return names.flatMap((r) => {
        const counts = byHost.get(n(r.id));
        return counts
          ? [
              {
                hostId: n(r.id),
                hostName: String(r.name),
                regionName: String(r.region_name),
                ...states(counts),
              },
            ]
          : [];
      });
    },

    /** Creates that failed in the period: how many, and the latest `limit` with their reason. */
    async failedCreates(from: Date, limit: number, tenantId?: number) {
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`select i.id, i.name, i.user_id, u.phone, t.name as tenant_name, h.name as host_name,
          i.gpu_model, i.stop_reason,
          coalesce((select max(e.created_at) from instance_events e
            where e.instance_id = i.id and e.to_status = 'FAILED'), i.updated_at) as failed_at,
          count(*) over ()::int as total
        from instances i join users u on u.id = i.user_id join tenants t on t.id = i.tenant_id
          join hosts h on h.id = i.host_id
        where i.status = 'FAILED' and i.created_at >= ${from.toISOString()}::timestamptz${ofTenant(sql`i.tenant_id`, tenantId)}
        order by failed_at desc, i.id desc
        limit ${limit}`,
      );
      return {
        count: n(rows[0]?.total),
        latest: rows.map((r) => ({
          instanceId: n(r.id),
          instanceName: String(r.name),
          userId: n(r.user_id),
          phone: String(r.phone),
          tenantName: String(r.tenant_name),
          hostName: String(r.host_name),
          gpuModel: String(r.gpu_model),
          reason: r.stop_reason === null ? null : String(r.stop_reason),
          failedAt: iso(r.failed_at) as string,
        })),
      };
    },

    /** Active hosts whose last probe is older than `since`, failed, or never happened. */
    async staleHosts(since: Date, tenantId?: number) {
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`select h.id, h.name, r.name as region_name, h.last_probe_at, h.last_probe_ok, h.last_probe_error
        from hosts h join regions r on r.id = h.region_id
        where h.status = 'ACTIVE'
          and (h.last_probe_at is null or h.last_probe_at < ${since.toISOString()}::timestamptz
            or h.last_probe_ok is not true)${ofTenantHosts(sql`h.id`, tenantId)}
        order by h.last_probe_at asc nulls first, h.id
        limit 50`,
      );
      return rows.map((r) => ({
        hostId: n(r.id),
        hostName: String(r.name),
        regionName: String(r.region_name),
        lastProbeAt: iso(r.last_probe_at),
        lastProbeOk: r.last_probe_ok === null ? null : Boolean(r.last_probe_ok),
        lastProbeError: r.last_probe_error === null ? null : String(r.last_probe_error),
      }));
    },

    /** Active users whose available balance is below `threshold` units, lowest first. */
    async lowBalance(threshold: number, limit: number, tenantId?: number) {
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`select u.id, u.phone, u.username, t.name as tenant_name, a.available::text as available,
          count(*) over ()::int as total
        from accounts a join users u on u.id = a.user_id join tenants t on t.id = u.tenant_id
        where u.status = 'ACTIVE' and a.available < ${threshold}${ofTenant(sql`u.tenant_id`, tenantId)}
        order by a.available asc, u.id
        limit ${limit}`,
      );
      return {
        count: n(rows[0]?.total),
        list: rows.map((r) => ({
          userId: n(r.id),
          phone: String(r.phone),
          username: String(r.username),
          tenantName: String(r.tenant_name),
          available: n(r.available),
        })),
      };
    },
  };
}
