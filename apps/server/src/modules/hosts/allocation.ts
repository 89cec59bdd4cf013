import { INSTANCE_CONTAINER_PORTS } from '@gpu/shared';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../app/db/client.ts';
import { hostErrors } from './hosts.errors.ts';
import { hostGpus, hostPorts, hosts } from './hosts.tables.ts';
import { syncPortPool } from './ports.ts';

export interface AllocationRequest {
  hostId: number;
  instanceId: number;
  /** 0 is allowed (power on without GPU). */
  gpuCount: number;
  /** Host ports to map; SSH and JupyterLab by default. */
  portCount?: number;
  /** GPU indices to take first when idle (power on wants the ones its container was made with). */
  preferIndices?: number[];
}

export interface Allocation {
  hostId: number;
  instanceId: number;
  gpus: { index: number; uuid: string; model: string }[];
  ports: number[];
}

/** Locks the host row for the rest of the caller's transaction; every allocation change goes through it. */
export async function lockHost(tx: Tx, hostId: number) {
  const [host] = await tx.select().from(hosts).where(eq(hosts.id, hostId)).for('update');
  if (!host) throw hostErrors.notFound();
  return host;
}

/**
 * Gives an instance `gpuCount` idle GPUs (lowest indices first) and `portCount` free ports of a
 * host, inside the caller's transaction and under a row lock of the host (DESIGN §6): two
 * callers can never get the same GPU or port. Throws an AppError when the host is not active
 * or has too few; the caller's transaction then rolls back whatever else it did.
 */
export async function allocateOnHost(tx: Tx, req: AllocationRequest): Promise<Allocation> {
  const portCount = req.portCount ?? INSTANCE_CONTAINER_PORTS.length;
  const host = await lockHost(tx, req.hostId);
  if (host.status !== 'ACTIVE') throw hostErrors.notActive();

  const idle = await tx
    .select({ id: hostGpus.id, index: hostGpus.index, uuid: hostGpus.uuid, model: hostGpus.model })
    .from(hostGpus)
    .where(and(eq(hostGpus.hostId, host.id), isNull(hostGpus.instanceId), isNull(hostGpus.reservedReason)))
    .orderBy(asc(hostGpus.index));
  if (idle.length < req.gpuCount) throw hostErrors.insufficientGpus(req.gpuCount, idle.length);
  const preferred = new Set(req.preferIndices ?? []);
  const ordered = [
    ...idle.filter((g) => preferred.has(g.index)),
    ...idle.filter((g) => !preferred.has(g.index)),
  ];
  const gpus = ordered.slice(0, req.gpuCount);

  let ports: number[] = [];
  if (portCount > 0) {
    // A host whose pool was never initialised gets it now, from its range.
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(hostPorts)
      .where(eq(hostPorts.hostId, host.id));
    if (n === 0) await syncPortPool(tx, host);
    const free = await tx
      .select({ port: hostPorts.port })
      .from(hostPorts)
      .where(and(eq(hostPorts.hostId, host.id), isNull(hostPorts.instanceId)))
      .orderBy(asc(hostPorts.port))
      .limit(portCount);
    if (free.length < portCount) throw hostErrors.insufficientPorts();
    ports = free.map((p) => p.port);
  }

  const now = new Date();
  if (gpus.length > 0) {
    await tx
      .update(hostGpus)
      .set({ instanceId: req.instanceId, updatedAt: now })
      .where(
        inArray(
          hostGpus.id,
          gpus.map((g) => g.id),
        ),
      );
  }
  if (ports.length > 0) {
    await tx
      .update(hostPorts)
      .set({ instanceId: req.instanceId })
      .where(and(eq(hostPorts.hostId, host.id), inArray(hostPorts.port, ports)));
  }
  return {
    hostId: host.id,
    instanceId: req.instanceId,
    gpus: gpus.map(({ index, uuid, model }) => ({ index, uuid, model })),
    ports,
  };
}

/**
 * Returns what an instance holds on a host, under the same lock. `gpus: false` keeps the GPUs
 * (packages keep theirs when powered off), `ports: false` keeps the ports (a stopped container
 * keeps its port bindings). Releasing nothing that is held is not an error.
 */
export async function releaseOnHost(
  tx: Tx,
  req: { hostId: number; instanceId: number; gpus?: boolean; ports?: boolean },
): Promise<{ gpus: number[]; ports: number[] }> {
  await lockHost(tx, req.hostId);
  const now = new Date();
  const gpus =
    req.gpus === false
      ? []
      : await tx
          .update(hostGpus)
          .set({ instanceId: null, updatedAt: now })
          .where(and(eq(hostGpus.hostId, req.hostId), eq(hostGpus.instanceId, req.instanceId)))
          .returning({ index: hostGpus.index });
  const ports =
    req.ports === false
      ? []
      : await tx
          .update(hostPorts)
          .set({ instanceId: null })
          .where(and(eq(hostPorts.hostId, req.hostId), eq(hostPorts.instanceId, req.instanceId)))
          .returning({ port: hostPorts.port });
  return {
    gpus: gpus.map((g) => g.index).sort((a, b) => a - b),
    ports: ports.map((p) => p.port).sort((a, b) => a - b),
  };
}
