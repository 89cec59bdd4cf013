import type { PackagePrices } from '@gpu/shared';
import { and, eq, type SQLWrapper, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { packagePrices } from '../market/package-prices.tables.ts';

export type PackagePriceRow = typeof packagePrices.$inferSelect;

/** The platform's package prices of a GPU model in a region, on a platform: one row at most. */
const priceOf = (gpuType: string | SQLWrapper, regionId: number | SQLWrapper, platform: string) =>
  and(
    eq(packagePrices.gpuType, gpuType),
    eq(packagePrices.regionId, regionId),
    eq(packagePrices.platform, platform),
  );

/**
 * `priceOf` as a column of another query (its model and region given as that query's columns):
 * { daily, weekly, monthly } in units, or null when the platform sets none.
 */
export const packagePricesColumn = (gpuType: SQLWrapper, regionId: SQLWrapper, platform = 'local') =>
  sql<PackagePrices | null>`(select json_build_object('daily', ${packagePrices.dailyPrice}, 'weekly', ${packagePrices.weeklyPrice}, 'monthly', ${packagePrices.monthlyPrice})
    from ${packagePrices} where ${priceOf(gpuType, regionId, platform)} limit 1)`;

export function createPricingRepository({ db }: { db: DbOrTx }) {
  return {
    all: () => db.select().from(packagePrices).orderBy(packagePrices.id),
    byGpuType: (gpuType: string) => db.select().from(packagePrices).where(eq(packagePrices.gpuType, gpuType)),
    async find(gpuType: string, regionId: number, platform: string) {
      const [p] = await db
        .select()
        .from(packagePrices)
        .where(priceOf(gpuType, regionId, platform))
        .limit(1);
      return p ?? null;
    },
  };
}
