import type { BillingType, InstanceStatus } from '@gpu/shared';
import { type SQL, sql } from 'drizzle-orm';
import {
  cappedCount,
  cappedTableCount,
  cappedTableTotal,
  cappedTotal,
} from '../../platform/db/capped-count.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { containing } from '../../platform/db/like.ts';
import { newestIds, rowsOfIds } from '../../platform/db/paging.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import { countGpuStates, sumGpuStates } from '../hosts/index.ts';
import { instances } from '../instances/instances.tables.ts';
import { type UserFilter, type UserSort, usersPage } from './users-page.repository.ts';

export { rowsOf };
/** Numbers of bigint sums come as text. */
export const n = (v: unknown) => Number(v ?? 0);

/**
 * An admin's search over instances: part of the name, the user's phone, the host's name, the GPU
 * model or the container id, or the instance's id (its uuid on the screens is the id), "#12" too.
 */
function keywordMatch(keyword: string): SQL {
  const like = containing(keyword);
  const id = /^#?\d{1,15}$/.test(keyword) ? Number(keyword.replace('#', '')) : null;
  return sql`(i.name ilike ${like} or u.phone ilike ${like} or h.name ilike ${like}
    or i.gpu_model ilike ${like} or coalesce(i.container_id, '') ilike ${like}
    ${id === null ? sql`` : sql`or i.id = ${id}`})`;
}

/** `tenant_id = scope` for a tenant operator's queries (issue 29); `true` for a platform admin. */
const inTenant = (scope: number | null, column = sql`tenant_id`): SQL =>
  scope === null ? sql`true` : sql`${column} = ${scope}`;

export interface InstanceFilter {
  id?: number;
  /** Only this tenant's instances (a tenant operator's scope). */
  tenantId?: number | null;
  userId?: number;
  hostId?: number;
  status?: InstanceStatus[];
  billingType?: BillingType;
  keyword?: string;
}

/** The columns of an instances page row, by their names in AdminInstanceRow. */
const ADMIN_INSTANCE_FIELDS = {
  id: sql`i.id::int`,
  name: sql`i.name`,
  status: sql`i.status`,
  user_id: sql`i.user_id`,
  user_phone: sql`u.phone`,
  tenant_name: sql`t.name`,
  host_id: sql`i.host_id`,
  host_name: sql`h.name`,
  region_name: sql`r.name`,
  gpu_model: sql`i.gpu_model`,
  gpu_count: sql`i.gpu_count`,
  gpu_indices: sql`i.gpu_indices`,
  billing_type: sql`i.billing_type`,
  hourly_rate: sql`i.hourly_rate::text`,
  package_unit_price: sql`i.package_unit_price::text`,
  charged: sql`i.charged::text`,
  image: sql`i.image`,
  created_at: sql`i.created_at`,
  running_since: sql`i.running_since`,
  stopped_at: sql`i.stopped_at`,
  expires_at: sql`i.expires_at`,
  stop_reason: sql`i.stop_reason`,
} satisfies Record<keyof AdminInstanceRow, SQL>;
const ADMIN_INSTANCE_COLUMNS = sql.join(
  Object.entries(ADMIN_INSTANCE_FIELDS).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
  sql`, `,
);
/** A page's instances (`ids`: a `select id ... limit ... offset ...`) with their user, tenant, host and region. */
const instancesOfPage = (ids: SQL) => sql`(${ids}) p
  join instances i on i.id = p.id join users u on u.id = i.user_id join tenants t on t.id = i.tenant_id
  join hosts h on h.id = i.host_id join regions r on r.id = i.region_id`;

/**
 * The instances page as it opens (no filter, newest first): its ids, then its rows with the
 * capped total riding along, each a statement built and planned once (issue 33; why two, see
 * rowsOfIds).
 */
const instancesOpeningIds = newestIds('admin_instances_page_ids', instances, instances.id);
const instancesOpeningPage = preparedStatement('admin_instances_page', (db) =>
  db
    .select({ ...ADMIN_INSTANCE_FIELDS, total: cappedTableCount('instances') })
    .from(instancesOfPage(rowsOfIds))
    .orderBy(sql`i.id desc`),
) as (db: DbOrTx, v: { ids: number[] }) => Promise<(AdminInstanceRow & { total: number })[]>;

export interface AdminInstanceRow {
  id: number;
  name: string;
  status: InstanceStatus;
  user_id: number;
  user_phone: string;
  tenant_name: string;
  host_id: number;
  host_name: string;
  package_unit_price: string | null;
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
}

/**
 * The SQL of the back office's operations screens: read-only views over users and instances (balances:
 * balance.repository.ts).
 */
export function createOperationsRepository({ db }: { db: DbOrTx }) {
  return {
    users: (
      f: UserFilter,
      page: { page: number; size: number },
      sort: UserSort = { by: 'createdAt', order: 'desc' },
    ) => usersPage(db, f, page, sort),

    /** The figures of every tenant, or of `scope`'s only (a tenant operator). */
    async userTotals(dayStart: Date, scope: number | null) {
      const t = inTenant(scope);
      const [r] = await rowsOf<Record<string, unknown>>(
        db,
        sql`select (select count(*) from users where ${t})::int as users,
          (select count(*) from users where ${t} and created_at >= ${dayStart.toISOString()}::timestamptz)::int as new_today,
          (select count(distinct user_id) from instances where ${t} and status = 'RUNNING')::int as active,
          (select count(*) from users where ${t} and status <> 'ACTIVE')::int as disabled,
          (select coalesce(sum(available + frozen), 0) from accounts where ${t})::text as balance,
          (select coalesce(sum(spent), 0) from accounts where ${t})::text as spend`,
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

    async userExists(id: number, scope: number | null) {
      const rows = await rowsOf<{ id: number }>(
        db,
        sql`select id from users where id = ${id} and ${inTenant(scope)}`,
      );
      return rows.length > 0;
    },

    async instances(f: InstanceFilter, page: { page: number; size: number }) {
      const values = { limit: page.size, offset: (page.page - 1) * page.size };
      const filtered =
        f.id || f.tenantId != null || f.userId || f.hostId || f.billingType || f.status?.length || f.keyword;
      if (!filtered) {
        const ids = await instancesOpeningIds(db, values);
        const rows = ids.length > 0 ? await instancesOpeningPage(db, { ids }) : [];
        if (rows[0]) return { rows, ...cappedTotal(Number(rows[0].total)) };
      }
      const filters = [
        f.id ? sql`i.id = ${f.id}` : null,
        f.tenantId != null ? inTenant(f.tenantId, sql`i.tenant_id`) : null,
        f.userId ? sql`i.user_id = ${f.userId}` : null,
        f.hostId ? sql`i.host_id = ${f.hostId}` : null,
        f.billingType ? sql`i.billing_type = ${f.billingType}` : null,
        f.status?.length
          ? sql`i.status in (${sql.join(
              f.status.map((s) => sql`${s}`),
              sql`, `,
            )})`
          : null,
        f.keyword ? keywordMatch(f.keyword) : null,
      ].filter((x): x is SQL => x !== null);
      const where = sql.join([sql`true`, ...filters], sql` and `);
      // The page's ids first (instances_status / the key serve the order), then their rows. Only
      // a keyword reads users and hosts (phone, host name): every instance has both (foreign keys),
      // so without one the count reads instances alone.
      const from = f.keyword
        ? sql`from instances i join users u on u.id = i.user_id join hosts h on h.id = i.host_id
        where ${where}`
        : sql`from instances i where ${where}`;
      const [rows, count] = await Promise.all([
        rowsOf<AdminInstanceRow>(
          db,
          sql`select ${ADMIN_INSTANCE_COLUMNS}
        from ${instancesOfPage(sql`select i.id ${from} order by i.id desc limit ${values.limit} offset ${values.offset}`)}
        order by i.id desc`,
        ),
        // Instances are never deleted (released ones stay): the whole table's count may be the planner's.
        filters.length ? cappedCount(db, sql`select 1 ${from}`) : cappedTableTotal(db, 'instances'),
      ]);
      return { rows, ...count };
    },

    /**
     * Instance figures of every tenant, or of `scope`'s only. The GPUs' occupancy is the hosts'
     * (shared by every tenant), so a tenant operator gets none.
     */
    async instanceCounts(dayStart: Date, scope: number | null) {
      const t = inTenant(scope);
      const byStatus = await rowsOf<{ status: string; n: number }>(
        db,
        sql`select status, count(*)::int as n from instances where ${t} group by status`,
      );
      const byModel =
        scope === null ? sumGpuStates(await countGpuStates(db), (g) => g.model) : new Map<string, never>();
      const gpus = [...byModel]
        .map(([model, c]) => ({ model, ...c }))
        .sort((a, b) => (a.model < b.model ? -1 : 1));
      const [money] = await rowsOf<Record<string, unknown>>(
        db,
        sql`select (select coalesce(-sum(amount), 0) from ledger_entries
            where ${t} and kind in ('charge', 'refund') and created_at >= ${dayStart.toISOString()}::timestamptz)::text as revenue,
          (select coalesce(sum(coalesce(nogpu_rate, hourly_rate)), 0) from instances
            where ${t} and billing_type = 'hourly' and status in ('RUNNING', 'STOPPING'))::text as burn`,
      );
      return {
        byStatus: Object.fromEntries(byStatus.map((r) => [r.status, n(r.n)])),
        gpus,
        revenue: n(money?.revenue),
        burn: n(money?.burn),
      };
    },
  };
}
