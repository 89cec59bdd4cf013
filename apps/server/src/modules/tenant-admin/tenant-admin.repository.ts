import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { appMeta } from '../../platform/db/meta.tables.ts';
import { gpuSkus } from '../hosts/catalog.tables.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import {
  type TenantSettings,
  tenantDomains,
  tenantHosts,
  tenantSkuPrices,
  tenants,
  uploadedFiles,
} from '../tenants/tenants.tables.ts';

/** The app_meta row whose value every replica's tenant cache compares (see tenants.usecases.ts). */
export const TENANT_VERSION_KEY = 'tenants.version';

export type TenantRow = typeof tenants.$inferSelect;

/** SQL of the back office's tenant screens: tenants, domains, host grants, tenant prices, uploads. */
export function createTenantsAdminRepository({ db }: { db: DbOrTx }) {
  return {
    /** Every tenant, or only `tenantId` (a tenant operator's scope). */
    async list(tenantId: number | null = null) {
      return db
        .select({
          tenant: tenants,
          domains: sql<
            string[]
          >`coalesce((select array_agg(d.host order by d.host) from ${tenantDomains} d where d.tenant_id = ${tenants.id}), '{}')`,
          hostCount: sql<number>`(select count(*)::int from ${tenantHosts} th where th.tenant_id = ${tenants.id})`,
          priceCount: sql<number>`(select count(*)::int from ${tenantSkuPrices} p where p.tenant_id = ${tenants.id})`,
        })
        .from(tenants)
        .where(tenantId === null ? undefined : eq(tenants.id, tenantId))
        .orderBy(asc(tenants.id));
    },
    /** `scope`: a tenant operator's tenant; any other tenant is not found. Null: any tenant. */
    async find(id: number, scope: number | null = null) {
      const [row] = await db
        .select()
        .from(tenants)
        .where(and(eq(tenants.id, id), scope === null ? undefined : eq(tenants.id, scope)))
        .limit(1);
      return row;
    },
    async findByCode(code: string) {
      const [row] = await db.select().from(tenants).where(eq(tenants.code, code)).limit(1);
      return row;
    },
    async domainsOf(id: number) {
      const rows = await db
        .select({ host: tenantDomains.host })
        .from(tenantDomains)
        .where(eq(tenantDomains.tenantId, id))
        .orderBy(asc(tenantDomains.host));
      return rows.map((r) => r.host);
    },
    /** Domains of `hosts` held by another tenant than `tenantId`. */
    async domainsTakenByOthers(hostNames: string[], tenantId: number | null) {
      if (hostNames.length === 0) return [];
      const rows = await db
        .select({ host: tenantDomains.host, tenantId: tenantDomains.tenantId })
        .from(tenantDomains)
        .where(inArray(tenantDomains.host, hostNames));
      return rows.filter((r) => r.tenantId !== tenantId).map((r) => r.host);
    },
    async insert(values: { code: string; name: string; status: string; config: TenantSettings }) {
      const [row] = await db.insert(tenants).values(values).returning();
      if (!row) throw new Error('tenant insert returned no row');
      return row;
    },
    async update(id: number, set: Partial<typeof tenants.$inferInsert>) {
      const [row] = await db.update(tenants).set(set).where(eq(tenants.id, id)).returning();
      return row;
    },
    async replaceDomains(id: number, hostNames: string[]) {
      await db.delete(tenantDomains).where(eq(tenantDomains.tenantId, id));
      if (hostNames.length)
        await db.insert(tenantDomains).values(hostNames.map((host) => ({ host, tenantId: id })));
    },
    async existingRegionIds(ids: number[]) {
      if (ids.length === 0) return [];
      const rows = await db.select({ id: regions.id }).from(regions).where(inArray(regions.id, ids));
      return rows.map((r) => r.id);
    },

    // ---- host grants ----
    async hostIdsOf(tenantId: number) {
      const rows = await db
        .select({ hostId: tenantHosts.hostId })
        .from(tenantHosts)
        .where(eq(tenantHosts.tenantId, tenantId))
        .orderBy(asc(tenantHosts.hostId));
      return rows.map((r) => r.hostId);
    },
    async existingHostIds(ids: number[]) {
      if (ids.length === 0) return [];
      const rows = await db.select({ id: hosts.id }).from(hosts).where(inArray(hosts.id, ids));
      return rows.map((r) => r.id);
    },
    async replaceHosts(tenantId: number, hostIds: number[]) {
      await db.delete(tenantHosts).where(eq(tenantHosts.tenantId, tenantId));
      if (hostIds.length)
        await db.insert(tenantHosts).values(hostIds.map((hostId) => ({ tenantId, hostId })));
    },

    // ---- tenant prices ----
    /** Every SKU with the tenant's own price beside the platform's. */
    prices(tenantId: number) {
      return db
        .select({
          skuId: gpuSkus.id,
          hostId: gpuSkus.hostId,
          hostName: hosts.name,
          regionName: regions.name,
          gpuModel: gpuSkus.gpuModel,
          basePrice: gpuSkus.hourlyPrice,
          hourlyPrice: tenantSkuPrices.hourlyPrice,
          dailyPrice: tenantSkuPrices.dailyPrice,
          weeklyPrice: tenantSkuPrices.weeklyPrice,
          monthlyPrice: tenantSkuPrices.monthlyPrice,
        })
        .from(gpuSkus)
        .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
        .innerJoin(regions, eq(regions.id, hosts.regionId))
        .leftJoin(
          tenantSkuPrices,
          and(eq(tenantSkuPrices.skuId, gpuSkus.id), eq(tenantSkuPrices.tenantId, tenantId)),
        )
        .orderBy(asc(regions.sortOrder), asc(gpuSkus.id));
    },
    async skuExists(id: number) {
      const [row] = await db.select({ id: gpuSkus.id }).from(gpuSkus).where(eq(gpuSkus.id, id)).limit(1);
      return !!row;
    },
    async findPrice(tenantId: number, skuId: number) {
      const [row] = await db
        .select()
        .from(tenantSkuPrices)
        .where(and(eq(tenantSkuPrices.tenantId, tenantId), eq(tenantSkuPrices.skuId, skuId)))
        .limit(1);
      return row;
    },
    async upsertPrice(
      row: { tenantId: number; skuId: number; hourlyPrice: number } & Record<
        'dailyPrice' | 'weeklyPrice' | 'monthlyPrice',
        number | null
      >,
      now: Date,
    ) {
      const { tenantId: _t, skuId: _s, ...prices } = row;
      await db
        .insert(tenantSkuPrices)
        .values(row)
        .onConflictDoUpdate({
          target: [tenantSkuPrices.tenantId, tenantSkuPrices.skuId],
          set: { ...prices, updatedAt: now },
        });
    },
    async deletePrice(tenantId: number, skuId: number) {
      await db
        .delete(tenantSkuPrices)
        .where(and(eq(tenantSkuPrices.tenantId, tenantId), eq(tenantSkuPrices.skuId, skuId)));
    },

    // ---- uploads ----
    async insertFile(row: typeof uploadedFiles.$inferInsert) {
      await db.insert(uploadedFiles).values(row);
    },
    async findFile(id: string) {
      const [row] = await db.select().from(uploadedFiles).where(eq(uploadedFiles.id, id)).limit(1);
      return row;
    },

    // ---- the cross-replica version of the tenant table ----
    async bumpVersion() {
      await db
        .insert(appMeta)
        .values({ key: TENANT_VERSION_KEY, value: 1 })
        .onConflictDoUpdate({
          target: appMeta.key,
          set: { value: sql`to_jsonb((${appMeta.value})::text::bigint + 1)` },
        });
    },
  };
}
