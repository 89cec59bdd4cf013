import { and, asc, eq, isNull, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { gpuSkus } from './catalog.tables.ts';
import { hostGpus } from './hosts.tables.ts';

type GpuRow = typeof hostGpus.$inferSelect;
type NewSku = typeof gpuSkus.$inferInsert;

/** SQL of a host's GPU rows and SKUs; the reconciliation rules stay in inventory.ts / skus.ts. */
export function createInventoryRepository({ db }: { db: DbOrTx }) {
  /** GPUs whose index is not in `reported` (all of them when nothing is reported). */
  const gone = (reported: number[]) => (reported.length ? notInArray(hostGpus.index, reported) : undefined);

  return {
    gpus(hostId: number): Promise<GpuRow[]> {
      return db.select().from(hostGpus).where(eq(hostGpus.hostId, hostId));
    },

    async firstGpu(hostId: number): Promise<GpuRow | undefined> {
      const [gpu] = await db
        .select()
        .from(hostGpus)
        .where(eq(hostGpus.hostId, hostId))
        .orderBy(asc(hostGpus.index))
        .limit(1);
      return gpu;
    },

    async insertGpus(rows: (typeof hostGpus.$inferInsert)[]) {
      await db.insert(hostGpus).values(rows);
    },

    async updateGpu(id: number, set: Partial<Omit<GpuRow, 'id' | 'hostId'>>) {
      await db.update(hostGpus).set(set).where(eq(hostGpus.id, id));
    },

    /** Deletes free GPUs not reported; answers how many. */
    async deleteFreeGpusNotIn(hostId: number, reported: number[]): Promise<number> {
      const deleted = await db
        .delete(hostGpus)
        .where(and(eq(hostGpus.hostId, hostId), gone(reported), isNull(hostGpus.instanceId)))
        .returning({ index: hostGpus.index });
      return deleted.length;
    },

    /** Takes the (allocated) GPUs not reported out of sale with `reason`; answers how many. */
    async reserveGpusNotIn(hostId: number, reported: number[], reason: string, now: Date): Promise<number> {
      const missing = await db
        .update(hostGpus)
        .set({ reservedReason: reason, updatedAt: now })
        .where(and(eq(hostGpus.hostId, hostId), gone(reported), isNull(hostGpus.reservedReason)))
        .returning({ index: hostGpus.index });
      return missing.length;
    },

    skus(hostId: number) {
      return db.select().from(gpuSkus).where(eq(gpuSkus.hostId, hostId));
    },

    skusById(hostId: number) {
      return db.select().from(gpuSkus).where(eq(gpuSkus.hostId, hostId)).orderBy(asc(gpuSkus.id));
    },

    async updateSku(id: number, set: Partial<NewSku>) {
      await db.update(gpuSkus).set(set).where(eq(gpuSkus.id, id));
    },

    async insertSku(row: NewSku) {
      await db.insert(gpuSkus).values(row);
    },
  };
}
