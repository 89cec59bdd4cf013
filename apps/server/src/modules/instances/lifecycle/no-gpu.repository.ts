import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { regions } from '../../hosts/hosts.tables.ts';

/** SQL of no-GPU mode (无卡模式, issue 30): the price of the instance's region. */
export function createNoGpuRepository({ db }: { db: DbOrTx }) {
  return {
    async regionPrice(regionId: number): Promise<number | undefined> {
      const [row] = await db
        .select({ price: regions.noGpuHourlyPrice })
        .from(regions)
        .where(eq(regions.id, regionId));
      return row?.price;
    },
  };
}
