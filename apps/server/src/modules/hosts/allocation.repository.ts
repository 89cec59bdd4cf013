import {
  and,
  asc,
  type Column,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { unheldGpu } from './gpu-states.repository.ts';
import { hostGpus, hostPorts, hosts } from './hosts.tables.ts';

/** A host's port range (what the port pool is made from). */
export type PortRange = { id: number; portRangeStart: number; portRangeEnd: number };

/** A value given now, or a placeholder of a statement built once (`preparedStatement`). */
type Value<T> = T | Placeholder;

/**
 * `column = any(array(pick))`: the rows a `LIMIT … FOR UPDATE SKIP LOCKED` sub-select picks,
 * picked once per statement. Never `column IN (pick)`: PostgreSQL may plan that as a nested-loop
 * semi join that runs the sub-select again for every row the statement reads (it does when its
 * statistics expect one row, e.g. for a host registered after the last ANALYZE), and each run
 * skips the rows the statement already took (SKIP LOCKED passes over rows it changed itself) and
 * picks the next ones: a 1-GPU create took every free port of its host (issue 26). An
 * uncorrelated ARRAY(...) sub-select is an InitPlan: it runs once, before any row is read.
 */
const pickedOnce = (column: Column, pick: { getSQL(): SQL }): SQL =>
  sql`${column} = any(array(${pick.getSQL()}))`;

/**
 * The host's idle GPUs to take: up to `count`, preferred indices first, then the lowest, locked
 * `FOR UPDATE SKIP LOCKED` (rows another transaction holds, a concurrent create taking them or a
 * release giving them back, are skipped, not waited for, and a locked row is re-checked against
 * `instance_id is null` before it is taken, so no GPU goes twice); `only`: none but `prefer`,
 * no other row is even locked. A condition on `host_gpus`
 * (`pickedOnce`): the pick itself is not exported, so no statement can run it more than once.
 */
export function idleGpusPicked(
  db: DbOrTx,
  hostId: Value<number>,
  count: Value<number>,
  prefer: number[] = [],
  only = false,
): SQL {
  const preferred = prefer.length > 0 ? [sql`(${inArray(hostGpus.index, prefer)}) desc`] : [];
  const pick = db
    .select({ id: hostGpus.id })
    .from(hostGpus)
    .where(and(eq(hostGpus.hostId, hostId), unheldGpu(), only ? inArray(hostGpus.index, prefer) : undefined))
    .orderBy(...preferred, asc(hostGpus.index))
    .limit(count)
    .for('update', { skipLocked: true });
  return pickedOnce(hostGpus.id, pick);
}

/** Like `idleGpusPicked` for the host's lowest free ports: a condition on `host_ports` of the host. */
export function freePortsPicked(db: DbOrTx, hostId: Value<number>, count: Value<number>): SQL {
  const pick = db
    .select({ port: hostPorts.port })
    .from(hostPorts)
    .where(and(eq(hostPorts.hostId, hostId), isNull(hostPorts.instanceId)))
    .orderBy(asc(hostPorts.port))
    .limit(count)
    .for('update', { skipLocked: true });
  return sql`(${eq(hostPorts.hostId, hostId)} and ${pickedOnce(hostPorts.port, pick)})`;
}

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

    /**
     * The host row, share-locked until the caller's transaction ends: allocations on one host
     * run side by side and hold off whoever locks it FOR UPDATE (host edits, probes, delete).
     */
    async shareHost(hostId: number) {
      const [host] = await db.select().from(hosts).where(eq(hosts.id, hostId)).for('share');
      return host;
    },

    /** Gives the instance up to `count` idle GPUs of the host (`idleGpusPicked`) in one statement. */
    takeIdleGpus(
      hostId: number,
      instanceId: number,
      count: number,
      prefer: number[],
      now: Date,
      only = false,
    ) {
      return db
        .update(hostGpus)
        .set({ instanceId, updatedAt: now })
        .where(idleGpusPicked(db, hostId, count, prefer, only))
        .returning({ id: hostGpus.id, index: hostGpus.index, uuid: hostGpus.uuid, model: hostGpus.model });
    },

    /** How many of the host's GPUs no one holds or reserved (a plain read: rows being taken count as idle). */
    async idleGpuCount(hostId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(hostGpus)
        .where(and(eq(hostGpus.hostId, hostId), unheldGpu()));
      return row?.n ?? 0;
    },

    /** Like `takeIdleGpus` for the host's lowest free ports; answers them ascending. */
    async takeFreePorts(hostId: number, instanceId: number, count: number): Promise<number[]> {
      const taken = await db
        .update(hostPorts)
        .set({ instanceId })
        .where(freePortsPicked(db, hostId, count))
        .returning({ port: hostPorts.port });
      return taken.map((p) => p.port).sort((a, b) => a - b);
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
    releasePorts(hostId: number, instanceId: number, only?: number[]) {
      return db
        .update(hostPorts)
        .set({ instanceId: null })
        .where(
          and(
            eq(hostPorts.hostId, hostId),
            eq(hostPorts.instanceId, instanceId),
            only ? inArray(hostPorts.port, only) : undefined,
          ),
        )
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
