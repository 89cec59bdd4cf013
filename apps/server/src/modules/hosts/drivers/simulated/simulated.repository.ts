import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../../platform/db/client.ts';
import { images } from '../../catalog.tables.ts';
import { hostGpus, simulatedContainers, simulatedVolumes } from '../../hosts.tables.ts';
import { LABELS } from '../host-driver.ts';

export type SimulatedContainerRow = typeof simulatedContainers.$inferSelect;

/** SQL of one simulated host's containers (rows); the container rules stay in the driver. */
export function createSimulatedRepository({ db }: { db: DbOrTx }, hostId: number) {
  const managed = sql`${simulatedContainers.labels} ->> ${LABELS.managed} = 'true'`;

  return {
    async find(id: string): Promise<SimulatedContainerRow | undefined> {
      const [row] = await db
        .select()
        .from(simulatedContainers)
        .where(and(eq(simulatedContainers.id, id), eq(simulatedContainers.hostId, hostId)));
      return row;
    },

    gpus() {
      return db
        .select({
          index: hostGpus.index,
          uuid: hostGpus.uuid,
          model: hostGpus.model,
          memoryGb: hostGpus.memoryGb,
        })
        .from(hostGpus)
        .where(eq(hostGpus.hostId, hostId))
        .orderBy(asc(hostGpus.index));
    },

    async imageEnabled(image: string): Promise<boolean> {
      const [row] = await db
        .select({ id: images.id })
        .from(images)
        .where(and(eq(images.imageUrl, image), eq(images.enabled, true)));
      return Boolean(row);
    },

    /** Inserts a container unless its id or name is taken; answers whether it did. */
    async insert(values: Omit<typeof simulatedContainers.$inferInsert, 'hostId'>): Promise<boolean> {
      const inserted = await db
        .insert(simulatedContainers)
        .values({ ...values, hostId })
        .onConflictDoNothing()
        .returning({ id: simulatedContainers.id });
      return inserted.length > 0;
    },

    /** Host ports of the host's running containers other than `id`. */
    async portsOfOtherRunning(id: string) {
      const others = await db
        .select({ ports: simulatedContainers.ports })
        .from(simulatedContainers)
        .where(
          and(
            eq(simulatedContainers.hostId, hostId),
            eq(simulatedContainers.state, 'running'),
            ne(simulatedContainers.id, id),
          ),
        );
      return others.flatMap((o) => o.ports.map((p) => p.hostPort));
    },

    async set(id: string, set: Partial<typeof simulatedContainers.$inferInsert>) {
      await db.update(simulatedContainers).set(set).where(eq(simulatedContainers.id, id));
    },

    /** Deletes the host's container; answers whether there was one. */
    async delete(id: string): Promise<boolean> {
      const deleted = await db
        .delete(simulatedContainers)
        .where(and(eq(simulatedContainers.id, id), eq(simulatedContainers.hostId, hostId)))
        .returning({ id: simulatedContainers.id });
      return deleted.length > 0;
    },

    managedContainers() {
      return db
        .select()
        .from(simulatedContainers)
        .where(and(eq(simulatedContainers.hostId, hostId), managed))
        .orderBy(asc(simulatedContainers.createdAt));
    },

    /** Makes the volume unless it exists; answers the one of that name. */
    async ensureVolume(values: { name: string; labels: Record<string, string>; sizeGb: number | null }) {
      await db
        .insert(simulatedVolumes)
        .values({ ...values, hostId })
        .onConflictDoNothing();
      const [row] = await db
        .select()
        .from(simulatedVolumes)
        .where(and(eq(simulatedVolumes.hostId, hostId), eq(simulatedVolumes.name, values.name)));
      return row as typeof simulatedVolumes.$inferSelect;
    },

    managedVolumes() {
      return db
        .select()
        .from(simulatedVolumes)
        .where(
          and(
            eq(simulatedVolumes.hostId, hostId),
            sql`${simulatedVolumes.labels} ->> ${LABELS.managed} = 'true'`,
          ),
        )
        .orderBy(asc(simulatedVolumes.createdAt));
    },

    /** The files of a volume (a clone copies them); null when there is no such volume. */
    async volumeFiles(name: string): Promise<Record<string, string> | null> {
      const [row] = await db
        .select({ files: simulatedVolumes.files })
        .from(simulatedVolumes)
        .where(and(eq(simulatedVolumes.hostId, hostId), eq(simulatedVolumes.name, name)));
      return row ? row.files : null;
    },

    async setVolumeFiles(name: string, files: Record<string, string>) {
      await db
        .update(simulatedVolumes)
        .set({ files })
        .where(and(eq(simulatedVolumes.hostId, hostId), eq(simulatedVolumes.name, name)));
    },

    async deleteVolume(name: string) {
      await db
        .delete(simulatedVolumes)
        .where(and(eq(simulatedVolumes.hostId, hostId), eq(simulatedVolumes.name, name)));
    },

    async managedByName(name: string): Promise<SimulatedContainerRow | undefined> {
      const [row] = await db
        .select()
        .from(simulatedContainers)
        .where(and(eq(simulatedContainers.hostId, hostId), eq(simulatedContainers.name, name), managed));
      return row;
    },
  };
}

type SimulatedRepository = ReturnType<typeof createSimulatedRepository>;

/**
 * Runs `fn` in a transaction holding a lock of the simulated host's containers (a transaction
 * advisory lock on the host id, not the host row: a container start must not wait for, nor hold
 * off, allocations that share the host row), so two container starts on one host cannot both
 * take one port. Here rather than in the driver: drivers open no transactions
 * (scripts/check-layers.ts).
 */
export function withSimulatedHostLock<T>(
  db: Db,
  hostId: number,
  fn: (repo: SimulatedRepository) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('simulated-host'), ${hostId}::int)`);
    return fn(createSimulatedRepository({ db: tx }, hostId));
  });
}

/**
 * Steers the monitoring samples of an instance's simulated container(s): a fixed GPU utilisation
 * (0–100) for every GPU, or null to go back to the generated busy/idle phases. For tests and demos
 * (the idle guard's, issue 31); answers how many containers it set.
 */
export async function setSimulatedGpuLoad(db: DbOrTx, instanceId: number, load: number | null) {
  const rows = await db
    .update(simulatedContainers)
    .set({ gpuLoad: load === null ? null : Math.max(0, Math.min(100, Math.round(load))) })
    .where(sql`${simulatedContainers.labels} ->> ${LABELS.instanceId} = ${String(instanceId)}`)
    .returning({ id: simulatedContainers.id });
  return rows.length;
}
