import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../app/db/client.ts';
import { packagePrices } from './pricing.tables.ts';

export type PackagePriceRow = typeof packagePrices.$inferSelect;

export function createPricingRepository({ db }: { db: DbOrTx }) {
  return {
    all: () => db.select().from(packagePrices).orderBy(packagePrices.id),
    byGpuType: (gpuType: string) => db.select().from(packagePrices).where(eq(packagePrices.gpuType, gpuType)),
    async find(gpuType: string, regionId: number, platform: string) {
      const [p] = await db
        .select()
        .from(packagePrices)
        .where(
          and(
            eq(packagePrices.gpuType, gpuType),
            eq(packagePrices.regionId, regionId),
            eq(packagePrices.platform, platform),
          ),
        )
        .limit(1);
      return p ?? null;
    },
  };
}
