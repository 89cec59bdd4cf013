import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { gpuSkus, images } from '../../hosts/catalog.tables.ts';
import { usableImage } from '../../market/index.ts';

/** SQL of a reset: whether an image may go on an instance's machine (as at create). */
export function createResetRepository({ db }: { db: DbOrTx }) {
  return {
    async imageUsable(skuId: number, image: string): Promise<boolean> {
      const rows = await db
        .select({ ok: sql<boolean>`true` })
        .from(gpuSkus)
        .where(
          sql`${gpuSkus.id} = ${skuId} and exists (select 1 from ${images} where ${usableImage(image, gpuSkus.gpuBrand)})`,
        );
      return rows.length > 0;
    },
  };
}
