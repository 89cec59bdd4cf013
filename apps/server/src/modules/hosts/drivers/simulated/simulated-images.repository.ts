import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../../platform/db/client.ts';
import { simulatedImages } from '../../hosts.tables.ts';

export type SimulatedImageRow = typeof simulatedImages.$inferSelect;
/** The simulated registry's "host" (hosts.tables.ts). */
export const SIMULATED_REGISTRY_HOST = 0;

/** SQL of the images simulated hosts (and the simulated registry) hold. */
export function createSimulatedImagesRepository({ db }: { db: DbOrTx }) {
  return {
    async find(hostId: number, ref: string): Promise<SimulatedImageRow | undefined> {
      const [row] = await db
        .select()
        .from(simulatedImages)
        .where(and(eq(simulatedImages.hostId, hostId), eq(simulatedImages.ref, ref)));
      return row;
    },

    /** Writes the image of this reference on this host (a second commit overwrites it, as a tag does). */
    async put(row: Omit<SimulatedImageRow, 'createdAt'>) {
      await db
        .insert(simulatedImages)
        .values(row)
        .onConflictDoUpdate({
          target: [simulatedImages.hostId, simulatedImages.ref],
          set: { files: row.files, env: row.env, sizeBytes: row.sizeBytes },
        });
    },

    async delete(hostId: number, ref: string) {
      await db
        .delete(simulatedImages)
        .where(and(eq(simulatedImages.hostId, hostId), eq(simulatedImages.ref, ref)));
    },
  };
}
