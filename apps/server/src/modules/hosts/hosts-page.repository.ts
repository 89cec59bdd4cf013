import { and, asc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { gpuSkus } from './catalog.tables.ts';
import { type GpuStateRow, gpuStateCountsQuery } from './gpu-states.repository.ts';
import { hostGpus, hostPorts, hosts, regions } from './hosts.tables.ts';

type HostRow = typeof hosts.$inferSelect;
type SkuRow = typeof gpuSkus.$inferSelect;

const param = sql.placeholder;
const IDS = sql`any(${param('ids')}::int[])`;
type PageRow = { host: HostRow; regionName: string };
const pageQuery = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select({ host: hosts, regionName: regions.name })
    .from(hosts)
    .innerJoin(regions, eq(regions.id, hosts.regionId))
    .where(where)
    .orderBy(asc(hosts.id));
/**
 * The hosts page as it opens, and its page's figures: statements built and planned once
 * (issue 33: five short queries built and planned per request bounded the page).
 */
const firstPageStatement = preparedStatement('hosts_page', (db) =>
  db
    .select({ host: hosts, regionName: regions.name, total: sql<number>`(select count(*) from hosts)::int` })
    .from(hosts)
    .innerJoin(regions, eq(regions.id, hosts.regionId))
    .orderBy(asc(hosts.id))
    .limit(param('limit'))
    .offset(param('offset')),
);
export async function firstPage(
  db: DbOrTx,
  page: { page: number; size: number },
): Promise<[PageRow[], number]> {
  const values = { limit: page.size, offset: (page.page - 1) * page.size };
  const rows = (await firstPageStatement(db, values)) as (PageRow & { total: number })[];
  if (rows[0]) return [rows, Number(rows[0].total)];
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(hosts);
  return [[], count?.n ?? 0];
}
export async function filteredPage(
  db: DbOrTx,
  where: SQL | undefined,
  page?: { page: number; size: number },
): Promise<[PageRow[], number]> {
  const base = pageQuery(db, where);
  const rows = page ? await base.limit(page.size).offset((page.page - 1) * page.size) : await base;
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(hosts).where(where);
  return [rows, count?.n ?? 0];
}
export const pageSkus = preparedStatement('hosts_page_skus', (db) =>
  db.select().from(gpuSkus).where(sql`${gpuSkus.hostId} = ${IDS}`).orderBy(asc(gpuSkus.id)),
) as (db: DbOrTx, v: { ids: number[] }) => Promise<SkuRow[]>;
// The page's figures only: a sub-select in the page query ran for every row the offset skips.
export const pagePorts = preparedStatement('hosts_page_ports', (db) =>
  db
    .select({ hostId: hostPorts.hostId, n: sql<number>`count(*)::int` })
    .from(hostPorts)
    .where(and(sql`${hostPorts.hostId} = ${IDS}`, isNotNull(hostPorts.instanceId)))
    .groupBy(hostPorts.hostId),
) as (db: DbOrTx, v: { ids: number[] }) => Promise<{ hostId: number; n: number }[]>;
export const pageGpus = preparedStatement('hosts_page_gpus', (db) =>
  gpuStateCountsQuery(db, sql`${hostGpus.hostId} = ${IDS}`),
) as (db: DbOrTx, v: { ids: number[] }) => Promise<GpuStateRow[]>;
