import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../app/db/client.ts';
import { hostGpus, hostPorts, hosts } from './hosts.tables.ts';

type PortRange = { id: number; portRangeStart: number; portRangeEnd: number };

/** SQL of GPU and port allocation and of the port pool; the rules stay in allocation.ts / ports.ts. */
export function createAllocationRepository({ db }: { db: DbOrTx }) {
  const outside = (host: PortRange) =>
    or(lt(hostPorts.port, host.portRangeStart), gt(hostPorts.port, host.portRangeEnd));

  return {
    /** The host row, locked FOR UPDATE until the caller's transaction ends. */
    async lockHost(hostId: number) {
      const [host] = await db.select().from(hosts).where(eq(hosts.id, hostId)).for('update');
      return host;
    },

    /** Locks the host row like `lockHost`, reading only its id. */
    async lockHostId(hostId: number) {
      await db.select({ id: hosts.id }).from(hosts).where(eq(hosts.id, hostId)).for('update');
    },

    idleGpus(hostId: number) {
      return db
        .select({ id: hostGpus.id, index: hostGpus.index, uuid: hostGpus.uuid, model: hostGpus.model })
        .from(hostGpus)
        .where(and(eq(hostGpus.hostId, hostId), isNull(hostGpus.instanceId), isNull(hostGpus.reservedReason)))
        .orderBy(asc(hostGpus.index));
    },

    async portPoolSize(hostId: number): Promise<number> {
      const [{ n } = { n: 0 }] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(hostPorts)
        .where(eq(hostPorts.hostId, hostId));
      return n;
    },

    /** The lowest `limit` free ports of a host. */
    async freePorts(hostId: number, limit: number): Promise<number[]> {
      const free = await db
        .select({ port: hostPorts.port })
        .from(hostPorts)
        .where(and(eq(hostPorts.hostId, hostId), isNull(hostPorts.instanceId)))
        .orderBy(asc(hostPorts.port))
        .limit(limit);
      return free.map((p) => p.port);
    },

    async assignGpus(gpuIds: number[], instanceId: number, now: Date) {
      await db.update(hostGpus).set({ instanceId, updatedAt: now }).where(inArray(hostGpus.id, gpuIds));
    },

    async assignPorts(hostId: number, ports: number[], instanceId: number) {
      await db
        .update(hostPorts)
        .set({ instanceId })
        .where(and(eq(hostPorts.hostId, hostId), inArray(hostPorts.port, ports)));
    },

    /** Frees the instance's GPUs on the host; answers their indices. */
    releaseGpus(hostId: number, instanceId: number, now: Date) {
      return db
        .update(hostGpus)
        .set({ instanceId: null, updatedAt: now })
        .where(and(eq(hostGpus.hostId, hostId), eq(hostGpus.instanceId, instanceId)))
        .returning({ index: hostGpus.index });
    },

    /** Frees the instance's ports on the host; answers them. */
    releasePorts(hostId: number, instanceId: number) {
      return db
        .update(hostPorts)
        .set({ instanceId: null })
        .where(and(eq(hostPorts.hostId, hostId), eq(hostPorts.instanceId, instanceId)))
        .returning({ port: hostPorts.port });
    },

    /** Allocated ports outside the host's range, ascending. */
    async strandedPorts(host: PortRange): Promise<number[]> {
      const rows = await db
        .select({ port: hostPorts.port })
        .from(hostPorts)
        .where(and(eq(hostPorts.hostId, host.id), outside(host), isNotNull(hostPorts.instanceId)))
        .orderBy(asc(hostPorts.port));
      return rows.map((p) => p.port);
    },

    /** Deletes free ports outside the host's range; answers how many. */
    async deleteFreePortsOutside(host: PortRange): Promise<number> {
      const removed = await db
        .delete(hostPorts)
        .where(and(eq(hostPorts.hostId, host.id), outside(host), isNull(hostPorts.instanceId)))
        .returning({ port: hostPorts.port });
      return removed.length;
    },

    /** Adds every missing port of the host's range; answers how many. */
    async insertMissingPorts(host: PortRange): Promise<number> {
      const added = await db
        .insert(hostPorts)
        .select(
          db
            .select({
              hostId: sql<number>`${host.id}::int`.as('host_id'),
              port: sql<number>`p`.as('port'),
              instanceId: sql<number | null>`null::bigint`.as('instance_id'),
              createdAt: sql<Date>`now()`.as('created_at'),
            })
            .from(sql`generate_series(${host.portRangeStart}::int, ${host.portRangeEnd}::int) as p`),
        )
        .onConflictDoNothing()
        .returning({ port: hostPorts.port });
      return added.length;
    },

    async portCounts(hostId: number) {
      const [counts] = await db
        .select({
          total: sql<number>`count(*)::int`,
          allocated: sql<number>`count(${hostPorts.instanceId})::int`,
        })
        .from(hostPorts)
        .where(eq(hostPorts.hostId, hostId));
      return { total: counts?.total ?? 0, allocated: counts?.allocated ?? 0 };
    },
  };
}

export type AllocationRepository = ReturnType<typeof createAllocationRepository>;
