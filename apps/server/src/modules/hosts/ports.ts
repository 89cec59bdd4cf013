import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../../app/db/client.ts';
import { hostErrors } from './hosts.errors.ts';
import { hostPorts } from './hosts.tables.ts';

export interface PortPoolResult {
  total: number;
  added: number;
  removed: number;
  allocated: number;
}

/**
 * Makes the host's port pool equal its range: adds missing ports, drops free ports outside it.
 * Idempotent. Refuses (409) when an allocated port would fall outside the range. The caller
 * holds the host's row lock.
 */
export async function syncPortPool(
  tx: Tx,
  host: { id: number; portRangeStart: number; portRangeEnd: number },
): Promise<PortPoolResult> {
  const outside = or(lt(hostPorts.port, host.portRangeStart), gt(hostPorts.port, host.portRangeEnd));
  const stranded = await tx
    .select({ port: hostPorts.port })
    .from(hostPorts)
    .where(and(eq(hostPorts.hostId, host.id), outside, isNotNull(hostPorts.instanceId)))
    .orderBy(asc(hostPorts.port));
  if (stranded.length > 0) throw hostErrors.portsInUse(stranded.map((p) => p.port));

  const removed = await tx
    .delete(hostPorts)
    .where(and(eq(hostPorts.hostId, host.id), outside, isNull(hostPorts.instanceId)))
    .returning({ port: hostPorts.port });
  const added = await tx
    .insert(hostPorts)
    .select(
      tx
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
  const [counts] = await tx
    .select({
      total: sql<number>`count(*)::int`,
      allocated: sql<number>`count(${hostPorts.instanceId})::int`,
    })
    .from(hostPorts)
    .where(eq(hostPorts.hostId, host.id));
  return {
    total: counts?.total ?? 0,
    allocated: counts?.allocated ?? 0,
    added: added.length,
    removed: removed.length,
  };
}
