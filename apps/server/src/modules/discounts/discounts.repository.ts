import { and, desc, eq, gt, ilike, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { containing } from '../../platform/db/like.ts';
import { gpuSkus } from '../hosts/catalog.tables.ts';
import { regions } from '../hosts/hosts.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';
import type { DiscountRule } from './discounts.models.ts';
import { discounts } from './discounts.tables.ts';

export type DiscountRow = typeof discounts.$inferSelect;
export type DiscountState = 'ACTIVE' | 'PENDING' | 'ENDED' | 'DISABLED';
export interface DiscountListRow extends DiscountRow {
  tenantName: string | null;
  regionName: string | null;
}

function stateIs(state: DiscountState, now: Date): SQL {
  if (state === 'DISABLED') return eq(discounts.enabled, false);
  if (state === 'PENDING') return and(eq(discounts.enabled, true), gt(discounts.startsAt, now)) as SQL;
  if (state === 'ENDED') return and(eq(discounts.enabled, true), lte(discounts.endsAt, now)) as SQL;
  return and(eq(discounts.enabled, true), lte(discounts.startsAt, now), gt(discounts.endsAt, now)) as SQL;
}

export function createDiscountsRepository({ db }: { db: DbOrTx }) {
  return {
    /** Enabled rules of the tenant (or global) that have not ended at `now`; started or not. */
    async current(tenantId: number, now: Date): Promise<DiscountRule[]> {
      return await db
        .select()
        .from(discounts)
        .where(
          and(
            eq(discounts.enabled, true),
            gt(discounts.endsAt, now),
            or(isNull(discounts.tenantId), eq(discounts.tenantId, tenantId)),
          ),
        );
    },

    async list(
      f: {
        keyword?: string;
        regionId?: number;
        gpuType?: string;
        state?: DiscountState;
        id?: number;
        /** Only that tenant's own rules (a tenant operator's scope); null or absent: every rule. */
        tenantId?: number | null;
      },
      now: Date,
      page: { page: number; size: number },
    ): Promise<{ rows: DiscountListRow[]; total: number }> {
      const where = and(
        f.id !== undefined ? eq(discounts.id, f.id) : undefined,
        f.keyword ? ilike(discounts.name, containing(f.keyword)) : undefined,
        f.regionId ? eq(discounts.regionId, f.regionId) : undefined,
        f.gpuType ? sql`lower(${discounts.gpuModel}) = lower(${f.gpuType})` : undefined,
        f.state ? stateIs(f.state, now) : undefined,
        f.tenantId != null ? eq(discounts.tenantId, f.tenantId) : undefined,
      );
      const rows = await db
        .select({ d: discounts, tenantName: tenants.name, regionName: regions.name })
        .from(discounts)
        .leftJoin(tenants, eq(tenants.id, discounts.tenantId))
        .leftJoin(regions, eq(regions.id, discounts.regionId))
        .where(where)
        .orderBy(desc(discounts.id))
        .limit(page.size)
        .offset((page.page - 1) * page.size);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(discounts).where(where);
      return {
        rows: rows.map((r) => ({ ...r.d, tenantName: r.tenantName, regionName: r.regionName })),
        total: count?.n ?? 0,
      };
    },
    /** `tenantId`: only a rule of that tenant (a tenant operator's scope); null: any rule. */
    async find(id: number, tenantId: number | null): Promise<DiscountRow | undefined> {
      const [row] = await db
        .select()
        .from(discounts)
        .where(and(eq(discounts.id, id), tenantId === null ? undefined : eq(discounts.tenantId, tenantId)))
        .for('update');
      return row;
    },
    async insert(values: typeof discounts.$inferInsert): Promise<DiscountRow | undefined> {
      const [row] = await db.insert(discounts).values(values).returning();
      return row;
    },
    async update(id: number, set: Partial<typeof discounts.$inferInsert>): Promise<DiscountRow | undefined> {
      const [row] = await db.update(discounts).set(set).where(eq(discounts.id, id)).returning();
      return row;
    },
    async delete(id: number) {
      await db.delete(discounts).where(eq(discounts.id, id));
    },
    async exists(table: 'tenant' | 'region', id: number): Promise<boolean> {
      return table === 'tenant'
        ? (await db.$count(tenants, eq(tenants.id, id))) > 0
        : (await db.$count(regions, eq(regions.id, id))) > 0;
    },
    /**
     * What the scope pickers offer: regions, tenants and the GPU models on sale. With a tenant
     * (a tenant operator's scope): only that tenant, and the regions it shows (none listed: all).
     */
    async scopes(tenantId: number | null) {
      const [regionRows, tenantRows, gpuRows] = await Promise.all([
        db
          .select({ id: regions.id, name: regions.name })
          .from(regions)
          .orderBy(regions.sortOrder, regions.id),
        db
          .select({ id: tenants.id, name: tenants.name, config: tenants.config })
          .from(tenants)
          .where(tenantId === null ? undefined : eq(tenants.id, tenantId))
          .orderBy(tenants.id),
        db.selectDistinct({ model: gpuSkus.gpuModel }).from(gpuSkus).orderBy(gpuSkus.gpuModel),
      ]);
      const shown = tenantId === null ? [] : (tenantRows[0]?.config.visibleRegionResources ?? []);
      return {
        regions: shown.length ? regionRows.filter((r) => shown.includes(r.id)) : regionRows,
        tenants: tenantRows.map(({ id, name }) => ({ id, name })),
        gpuTypes: gpuRows.map((g) => g.model),
      };
    },
    activeCount(now: Date): Promise<number> {
      return db.$count(discounts, stateIs('ACTIVE', now));
    },
  };
}
