import { asc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { gpuSkus } from './catalog.tables.ts';
import { type GpuStateCounts, gpuState } from './gpu-states.repository.ts';
import { hostGpus, hostPorts, hosts, regions } from './hosts.tables.ts';

type HostRow = typeof hosts.$inferSelect;
type SkuRow = typeof gpuSkus.$inferSelect;
/** A host of the page with its region and figures (GPUs by state, ports held), flat. */
export type PageRow = HostRow & { regionName: string; gpus: GpuStateCounts; portsHeld: number };

const param = sql.placeholder;
const countWhere = (state: string) => sql`count(*) filter (where ${gpuState()} = ${sql.raw(`'${state}'`)})`;

/**
 * The page's figures as columns of its rows, read for those rows only (a correlated sub-select
 * per host of the page, `host_ports_held` for the ports): one statement, where four round trips
 * bounded the page (issue 33). The GPU states are `gpuState`'s, the one definition.
 */
const PAGE_FIELDS = {
  ...getTableColumns(hosts),
  regionName: regions.name,
  gpus: sql<GpuStateCounts>`(select json_build_object('total', count(*), 'idle', ${countWhere('idle')},
      'occupied', ${countWhere('occupied')}, 'reserved', ${countWhere('reserved')})
    from ${hostGpus} where ${hostGpus.hostId} = ${hosts.id})`,
  portsHeld: sql<number>`(select count(*) from ${hostPorts}
    where ${hostPorts.hostId} = ${hosts.id} and ${hostPorts.instanceId} is not null)::int`,
};

/**
 * The hosts of a page: their ids picked first, so the figures' sub-selects run for the page's
 * rows only, not for every row an offset skips (Limit pulls those through the projection too).
 */
const pageIds = (where: SQL | undefined, limit: unknown, offset: unknown) =>
  sql`(select id from hosts${where ? sql` where ${where}` : sql``} order by id limit ${limit} offset ${offset})`;
/**
 * `= any(array(...))`, not `in (...)`: PostgreSQL then takes the page for 10 rows in a prepared
 * statement's generic plan, as it does for any array it cannot see. With `in`, it took a page
 * limited by a placeholder for a tenth of all hosts, costed the figures' sub-selects for each,
 * and planned the statement afresh on every view (0.44 ms of its 0.73, issue 33).
 */
const idsOfPage = (where: SQL | undefined, limit: unknown, offset: unknown) =>
  sql`${hosts.id} = any(array${pageIds(where, limit, offset)})`;

/** The page as it opens (no filter): built and planned once, its total riding along. */
const firstPageStatement = preparedStatement('hosts_page', (db) =>
  db
    .select({ ...PAGE_FIELDS, total: sql<number>`(select count(*) from hosts)::int` })
    .from(hosts)
    .innerJoin(regions, eq(regions.id, hosts.regionId))
    .where(idsOfPage(undefined, param('limit'), param('offset')))
    .orderBy(asc(hosts.id)),
) as (db: DbOrTx, v: { limit: number; offset: number }) => Promise<(PageRow & { total: number })[]>;
/** The same page's SKUs, read at the same time as it (the same slice of hosts). */
const firstPageSkus = preparedStatement('hosts_page_skus', (db) =>
  db
    .select()
    .from(gpuSkus)
    .where(sql`${gpuSkus.hostId} = any(array${pageIds(undefined, param('limit'), param('offset'))})`)
    .orderBy(asc(gpuSkus.id)),
) as (db: DbOrTx, v: { limit: number; offset: number }) => Promise<SkuRow[]>;
const skusOf = preparedStatement('hosts_skus_of', (db) =>
  db
    .select()
    .from(gpuSkus)
    .where(sql`${gpuSkus.hostId} = any(${param('ids')}::int[])`)
    .orderBy(asc(gpuSkus.id)),
) as (db: DbOrTx, v: { ids: number[] }) => Promise<SkuRow[]>;

export async function firstPage(
  db: DbOrTx,
  page: { page: number; size: number },
): Promise<{ rows: PageRow[]; total: number; skus: SkuRow[] }> {
  const values = { limit: page.size, offset: (page.page - 1) * page.size };
  const [rows, skus] = await Promise.all([firstPageStatement(db, values), firstPageSkus(db, values)]);
  if (rows[0]) return { rows, total: Number(rows[0].total), skus };
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(hosts);
  return { rows: [], total: count?.n ?? 0, skus: [] };
}

export async function filteredPage(
  db: DbOrTx,
  where: SQL | undefined,
  page?: { page: number; size: number },
): Promise<{ rows: PageRow[]; total: number; skus: SkuRow[] }> {
  const [rows, [count]] = await Promise.all([
    db
      .select(PAGE_FIELDS)
      .from(hosts)
      .innerJoin(regions, eq(regions.id, hosts.regionId))
      .where(page ? idsOfPage(where, page.size, (page.page - 1) * page.size) : where)
      .orderBy(asc(hosts.id)),
    db.select({ n: sql<number>`count(*)::int` }).from(hosts).where(where),
  ]);
  const ids = rows.map((r) => r.id);
  return { rows, total: count?.n ?? 0, skus: ids.length ? await skusOf(db, { ids }) : [] };
}
