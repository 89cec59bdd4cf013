import { and, asc, type Column, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { gpuSkus } from '../hosts/catalog.tables.ts';
import { hostGpus, hosts, regions } from '../hosts/hosts.tables.ts';
import { gpuStateCountsQuery } from '../hosts/index.ts';
import type { TenantRecord } from '../tenants/index.ts';
import { tenantHosts, tenantSkuPrices } from '../tenants/tenants.tables.ts';
import { packagePrices } from './package-prices.tables.ts';

export interface MarketRow {
  id: number;
  /** Set for rows that are not SKUs (overseas offers: `vast-<offer id>`). */
  skuGpuId?: string;
  hostId: number;
  gpuModel: string;
  gpuBrand: string;
  memoryGb: number;
  cpuPerGpu: number;
  systemDiskGb: number;
  dataDiskGb: number;
  /** The tenant's own price where set, else the SKU's; units per GPU-hour. */
  hourlyPrice: number;
  /** The tenant's own package prices of one GPU, each null when not set (platform's apply). */
  tenantDaily: number | null;
  tenantWeekly: number | null;
  tenantMonthly: number | null;
  hostName: string;
  hostDriver: string;
  cpuModel: string;
  nvidiaDriver: string;
  cudaVersion: string;
  regionId: number;
  regionName: string;
  regionCode: string;
  regionSort: number;
  overseas: boolean;
  gpuNum: number;
  gpuIdleNum: number;
}

export interface TenantScope {
  tenantId: number;
  /** Region ids the tenant shows; empty means all. */
  regionIds: number[];
}

/** A scope or id list given now, or as placeholders of a statement built once (`preparedStatement`). */
/** A list given now, one integer-array placeholder, or an array expression of placeholders. */
type Ids = number[] | Placeholder | SQL;
export type ScopeParam = TenantScope | { tenantId: Placeholder; regionIds: Placeholder };

/** `column` among `ids` (with a placeholder or an expression, the text stays the same). */
const among = (column: Column, ids: Ids): SQL =>
  Array.isArray(ids) ? inArray(column, ids) : sql`${column} = any(${ids}::int[])`;

/** The market scope of a tenant: its id and the regions it shows. */
export const scopeOf = (tenant: TenantRecord): TenantScope => ({
  tenantId: tenant.id,
  regionIds: tenant.config.visibleRegionResources,
});

/**
 * GPU totals per (host, model) in one pass (idle as hosts' one definition, `gpuStateCountsQuery`), instead of a count per SKU row; only the named SKUs'
 * hosts when given (a quote counts one host's GPUs, not the whole fleet's).
 */
const gpuCounts = (db: DbOrTx, skuIds?: Ids) =>
  gpuStateCountsQuery(
    db,
    skuIds
      ? inArray(
          hostGpus.hostId,
          db.select({ hostId: gpuSkus.hostId }).from(gpuSkus).where(among(gpuSkus.id, skuIds)),
        )
      : undefined,
  ).as('gpu_counts');

/** A region the tenant's market shows: enabled, and among its visible regions when it names any. */
const visibleRegion = (scope: ScopeParam) =>
  and(
    eq(regions.enabled, true),
    Array.isArray(scope.regionIds)
      ? scope.regionIds.length > 0
        ? inArray(regions.id, scope.regionIds)
        : undefined
      : sql`(cardinality(${scope.regionIds}::int[]) = 0 or ${among(regions.id, scope.regionIds)})`,
  );

/**
 * The tenant's listed SKUs on active hosts it may sell (all, or `skuIds`) with their live GPU
 * counts: the one query behind the market and every quote. `extra` selects more next to each
 * row (a create reads its balance and image check in the same round trip).
 */
export function marketRowsQuery<E extends SelectedFields>(
  db: DbOrTx,
  scope: ScopeParam,
  skuIds?: Ids,
  extra: E = {} as E,
) {
  const hostAllowed = sql`(not exists (select 1 from ${tenantHosts} th where th.tenant_id = ${scope.tenantId})
    or ${hosts.id} in (select th.host_id from ${tenantHosts} th where th.tenant_id = ${scope.tenantId}))`;
  const counts = gpuCounts(db, skuIds);
  return db
    .select({
      id: gpuSkus.id,
      hostId: gpuSkus.hostId,
      gpuModel: gpuSkus.gpuModel,
      gpuBrand: gpuSkus.gpuBrand,
      memoryGb: gpuSkus.memoryGb,
      cpuPerGpu: gpuSkus.cpuPerGpu,
      systemDiskGb: gpuSkus.systemDiskGb,
      dataDiskGb: gpuSkus.dataDiskGb,
      hourlyPrice: sql<number>`coalesce(${tenantSkuPrices.hourlyPrice}, ${gpuSkus.hourlyPrice})`.mapWith(
        Number,
      ),
      tenantDaily: tenantSkuPrices.dailyPrice,
      tenantWeekly: tenantSkuPrices.weeklyPrice,
      tenantMonthly: tenantSkuPrices.monthlyPrice,
      hostName: hosts.name,
      hostDriver: hosts.driver,
      cpuModel: hosts.cpuModel,
      nvidiaDriver: hosts.nvidiaDriver,
      cudaVersion: hosts.cudaVersion,
      regionId: regions.id,
      regionName: regions.name,
      regionCode: regions.code,
      regionSort: regions.sortOrder,
      overseas: regions.overseas,
      gpuNum: sql<number>`coalesce(${counts.total}, 0)`.mapWith(Number),
      gpuIdleNum: sql<number>`coalesce(${counts.idle}, 0)`.mapWith(Number),
      ...extra,
    })
    .from(gpuSkus)
    .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
    .innerJoin(regions, eq(regions.id, hosts.regionId))
    .leftJoin(counts, and(eq(counts.hostId, gpuSkus.hostId), eq(counts.model, gpuSkus.gpuModel)))
    .leftJoin(
      tenantSkuPrices,
      and(eq(tenantSkuPrices.skuId, gpuSkus.id), eq(tenantSkuPrices.tenantId, scope.tenantId)),
    )
    .where(
      and(
        eq(gpuSkus.listed, true),
        eq(hosts.status, 'ACTIVE'),
        visibleRegion(scope),
        skuIds ? among(gpuSkus.id, skuIds) : undefined,
        hostAllowed,
      ),
    );
}

export function createMarketRepository({ db }: { db: DbOrTx }) {
  return {
    /** Every listed SKU the tenant may sell, in region order; GPU counts from live allocation. */
    listForTenant: (scope: TenantScope, skuIds?: number[]): Promise<MarketRow[]> =>
      marketRowsQuery(db, scope, skuIds).orderBy(asc(regions.sortOrder), asc(regions.id), asc(gpuSkus.id)),

    /**
     * The tenant's enabled overseas regions, with or without machines (SPEC.md §9: the overseas
     * area is a market region even when vast.ai is not configured and no host of ours is there).
     */
    overseasRegions: (scope: TenantScope) =>
      db
        .select({ id: regions.id, name: regions.name, overseas: regions.overseas })
        .from(regions)
        .where(and(eq(regions.overseas, true), visibleRegion(scope)))
        .orderBy(asc(regions.sortOrder), asc(regions.id)),

    packagePrices: () => db.select().from(packagePrices),
  };
}
