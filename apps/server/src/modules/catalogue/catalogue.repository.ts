import { and, asc, count, eq, gt, ilike, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { containing } from '../../platform/db/like.ts';
import { gpuSkus, images } from '../hosts/catalog.tables.ts';
import { hostGpus, hosts, regions } from '../hosts/hosts.tables.ts';
import { gpuState } from '../hosts/index.ts';
import { instances } from '../instances/instances.tables.ts';

export type RegionRow = typeof regions.$inferSelect;
export type ImageRow = typeof images.$inferSelect;
export type SkuRow = typeof gpuSkus.$inferSelect;
export interface SkuListRow extends SkuRow {
  hostName: string;
  regionId: number;
  regionName: string;
  gpuTotal: number;
  gpuIdle: number;
}

/** GPUs of the SKU's model on its host, and how many are idle (hosts' one definition, `gpuState`). */
const ofSku = sql`${hostGpus.hostId} = ${gpuSkus.hostId} and ${hostGpus.model} = ${gpuSkus.gpuModel}`;
const gpuTotal = sql<number>`(select count(*)::int from ${hostGpus} where ${ofSku})`;
const gpuIdle = sql<number>`(select count(*)::int from ${hostGpus} where ${ofSku} and ${gpuState()} = 'idle')`;

export interface SkuFilter {
  hostId?: number;
  regionId?: number;
  gpuModel?: string;
  listed?: boolean;
  ids?: number[];
}

/** SQL of regions, images and GPU SKUs; the rules stay in catalogue.usecases.ts. */
export function createCatalogueRepository({ db }: { db: DbOrTx }) {
  const skuWhere = (f: SkuFilter): SQL | undefined =>
    and(
      f.hostId ? eq(gpuSkus.hostId, f.hostId) : undefined,
      f.regionId ? eq(hosts.regionId, f.regionId) : undefined,
      f.gpuModel ? ilike(gpuSkus.gpuModel, containing(f.gpuModel)) : undefined,
      f.listed !== undefined ? eq(gpuSkus.listed, f.listed) : undefined,
      f.ids ? inArray(gpuSkus.id, f.ids) : undefined,
    );

  return {
    // ---- regions ----
    listRegions() {
      return db
        .select({
          region: regions,
          hostCount: sql<number>`(select count(*)::int from ${hosts} h where h.region_id = ${regions.id})`,
        })
        .from(regions)
        .orderBy(asc(regions.sortOrder), asc(regions.id));
    },
    async findRegion(id: number) {
      const [row] = await db.select().from(regions).where(eq(regions.id, id)).limit(1);
      return row;
    },
    async findRegionByNameOrCode(name: string, code: string) {
      return db.select().from(regions).where(sql`${regions.name} = ${name} or ${regions.code} = ${code}`);
    },
    async insertRegion(values: typeof regions.$inferInsert) {
      const [row] = await db.insert(regions).values(values).returning();
      if (!row) throw new Error('region insert returned no row');
      return row;
    },
    async updateRegion(id: number, set: Partial<typeof regions.$inferInsert>) {
      const [row] = await db.update(regions).set(set).where(eq(regions.id, id)).returning();
      return row;
    },
    /** GPU models sold per region, from the SKUs and GPU rows of the region's hosts. */
    gpuTypes(regionId?: number) {
      return db
        .select({
          gpuModel: gpuSkus.gpuModel,
          gpuBrand: sql<string>`min(${gpuSkus.gpuBrand})`,
          memoryGb: sql<number>`max(${gpuSkus.memoryGb})::int`,
          regionIds: sql<number[]>`array_agg(distinct ${hosts.regionId})`,
          skuCount: sql<number>`count(*)::int`,
          listedCount: sql<number>`(count(*) filter (where ${gpuSkus.listed}))::int`,
          gpuTotal: sql<number>`coalesce(sum(${gpuTotal}), 0)::int`,
          gpuIdle: sql<number>`coalesce(sum(${gpuIdle}), 0)::int`,
        })
        .from(gpuSkus)
        .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
        .where(regionId ? eq(hosts.regionId, regionId) : undefined)
        .groupBy(gpuSkus.gpuModel)
        .orderBy(asc(gpuSkus.gpuModel));
    },
    /** The SKUs of `gpuModel` (exact name) on the region's hosts. */
    skusOfModelInRegion(regionId: number, gpuModel: string) {
      return db
        .select({
          id: gpuSkus.id,
          hostId: gpuSkus.hostId,
          listed: gpuSkus.listed,
          hourlyPrice: gpuSkus.hourlyPrice,
        })
        .from(gpuSkus)
        .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
        .where(and(eq(hosts.regionId, regionId), eq(gpuSkus.gpuModel, gpuModel)))
        .orderBy(asc(gpuSkus.id));
    },
    /**
     * Sets `listed` on those SKUs that differ (listing only priced ones: ¥0 means never priced);
     * answers the ids it changed.
     */
    async setModelListedInRegion(regionId: number, gpuModel: string, listed: boolean, now: Date) {
      const rows = await db
        .update(gpuSkus)
        .set({ listed, updatedAt: now })
        .where(
          and(
            eq(gpuSkus.gpuModel, gpuModel),
            inArray(
              gpuSkus.hostId,
              db.select({ id: hosts.id }).from(hosts).where(eq(hosts.regionId, regionId)),
            ),
            ne(gpuSkus.listed, listed),
            listed ? gt(gpuSkus.hourlyPrice, 0) : undefined,
          ),
        )
        .returning({ id: gpuSkus.id });
      return rows.map((r) => r.id).sort((a, b) => a - b);
    },

    // ---- images ----
    async listImages(
      f: { keyword?: string; frameworkType?: string; gpuBrand?: string; enabled?: boolean },
      p: { page: number; size: number },
    ) {
      const where = and(
        f.keyword
          ? sql`(${ilike(images.imageName, containing(f.keyword))} or ${ilike(images.imageUrl, containing(f.keyword))})`
          : undefined,
        f.frameworkType ? eq(images.frameworkType, f.frameworkType) : undefined,
        f.gpuBrand ? eq(images.gpuBrand, f.gpuBrand) : undefined,
        f.enabled !== undefined ? eq(images.enabled, f.enabled) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(images)
          .where(where)
          .orderBy(asc(images.sortOrder), asc(images.id))
          .limit(p.size)
          .offset((p.page - 1) * p.size),
        db.select({ n: count() }).from(images).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
    async findImage(id: number) {
      const [row] = await db.select().from(images).where(eq(images.id, id)).limit(1);
      return row;
    },
    async findImageByUrl(url: string) {
      const [row] = await db.select().from(images).where(eq(images.imageUrl, url)).limit(1);
      return row;
    },
    async insertImage(values: typeof images.$inferInsert) {
      const [row] = await db.insert(images).values(values).returning();
      if (!row) throw new Error('image insert returned no row');
      return row;
    },
    async updateImage(id: number, set: Partial<typeof images.$inferInsert>) {
      const [row] = await db.update(images).set(set).where(eq(images.id, id)).returning();
      return row;
    },

    // ---- GPU SKUs ----
    async listSkus(
      f: SkuFilter,
      p?: { page: number; size: number },
    ): Promise<{ rows: SkuListRow[]; total: number }> {
      const base = db
        .select({
          sku: gpuSkus,
          hostName: hosts.name,
          regionId: hosts.regionId,
          regionName: regions.name,
          gpuTotal,
          gpuIdle,
        })
        .from(gpuSkus)
        .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
        .innerJoin(regions, eq(regions.id, hosts.regionId))
        .where(skuWhere(f))
        .orderBy(asc(gpuSkus.id));
      const [rows, [total]] = await Promise.all([
        p ? base.limit(p.size).offset((p.page - 1) * p.size) : base,
        db
          .select({ n: count() })
          .from(gpuSkus)
          .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
          .where(skuWhere(f)),
      ]);
      return {
        rows: rows.map(({ sku, ...rest }) => ({ ...sku, ...rest })),
        total: total?.n ?? 0,
      };
    },
    async findSku(id: number) {
      const [row] = await db.select().from(gpuSkus).where(eq(gpuSkus.id, id)).limit(1);
      return row;
    },
    async hostExists(id: number) {
      const [row] = await db.select({ id: hosts.id }).from(hosts).where(eq(hosts.id, id)).limit(1);
      return !!row;
    },
    async findSkuOf(hostId: number, gpuModel: string) {
      const [row] = await db
        .select()
        .from(gpuSkus)
        .where(and(eq(gpuSkus.hostId, hostId), eq(gpuSkus.gpuModel, gpuModel)))
        .limit(1);
      return row;
    },
    async insertSku(values: typeof gpuSkus.$inferInsert) {
      const [row] = await db.insert(gpuSkus).values(values).returning();
      if (!row) throw new Error('sku insert returned no row');
      return row;
    },
    async updateSku(id: number, set: Partial<typeof gpuSkus.$inferInsert>) {
      const [row] = await db.update(gpuSkus).set(set).where(eq(gpuSkus.id, id)).returning();
      return row;
    },
    async deleteSku(id: number) {
      await db.delete(gpuSkus).where(eq(gpuSkus.id, id));
    },
    async skuHasInstances(id: number) {
      const [row] = await db
        .select({ id: instances.id })
        .from(instances)
        .where(eq(instances.skuId, id))
        .limit(1);
      return !!row;
    },
    /** The GPU inventory the hosts reported: per host and model, count and memory. */
    reportedModels() {
      return db
        .select({
          hostId: hostGpus.hostId,
          model: hostGpus.model,
          memoryGb: sql<number>`max(${hostGpus.memoryGb})::int`,
          total: sql<number>`count(*)::int`,
        })
        .from(hostGpus)
        .groupBy(hostGpus.hostId, hostGpus.model);
    },
    allSkus() {
      return db.select().from(gpuSkus);
    },
    hostIds() {
      return db.select({ id: hosts.id }).from(hosts);
    },
  };
}
