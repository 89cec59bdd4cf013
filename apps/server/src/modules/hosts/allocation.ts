import { INSTANCE_CONTAINER_PORTS } from '@gpu/shared';
import type { Tx } from '../../platform/db/client.ts';
import {
  type AllocationRepository,
  createAllocationRepository,
  type PortRange,
} from './allocation.repository.ts';
import { hostErrors } from './hosts.errors.ts';

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

type HostRow = NonNullable<Awaited<ReturnType<AllocationRepository['lockHost']>>>;

/**
 * Locks the host row FOR UPDATE for the rest of the caller's transaction: for changes to the
 * host itself (its settings, port range, GPU inventory, status, deletion). It waits for every
 * allocation in progress on the host and holds off new ones.
 */
export async function lockHost(tx: Tx, hostId: number) {
  const host = await createAllocationRepository({ db: tx }).lockHost(hostId);
  if (!host) throw hostErrors.notFound();
  return host;
}

/**
 * Share-locks the host row for the rest of the caller's transaction: what allocations and
 * releases take. Any number of them run at once on one host (the GPU and port rows themselves
 * keep them apart, see `allocateOnHost`); a host change (`lockHost`) waits for them.
 */
export async function shareHost(tx: Tx, hostId: number): Promise<HostRow> {
  const host = await createAllocationRepository({ db: tx }).shareHost(hostId);
  if (!host) throw hostErrors.notFound();
  return host;
}

/** The host, when allocations may take from it (ACTIVE); otherwise the 409 that says it is not. */
function activeHost(host: HostRow): HostRow {
  if (host.status !== 'ACTIVE') throw hostErrors.notActive();
  return host;
}

/**
 * Gives an instance `gpuCount` idle GPUs (preferred, then lowest indices first) and `portCount`
 * free ports of a host, inside the caller's transaction and under a share lock of the host
 * (`shareHost`; the caller passes the row when it already holds it). Each GPU and port is taken
 * by one UPDATE over its rows `FOR UPDATE SKIP LOCKED`: concurrent allocations on one host take
 * different rows without waiting for each other, and two callers can never get the same GPU or
 * port. Throws an AppError when the host is not active or has too few (rows a concurrent
 * allocation holds count as taken); the caller's transaction then rolls back whatever it did.
 */
export async function allocateOnHost(
  tx: Tx,
  req: AllocationRequest & { host?: HostRow },
): Promise<Allocation> {
  const portCount = req.portCount ?? INSTANCE_CONTAINER_PORTS.length;
  const repo = createAllocationRepository({ db: tx });
  const host = activeHost(req.host ?? (await shareHost(tx, req.hostId)));
  const now = new Date();

  const prefer = req.preferIndices ?? [];
  const taken =
    req.gpuCount > 0 ? await repo.takeIdleGpus(host.id, req.instanceId, req.gpuCount, prefer, now) : [];
  if (taken.length < req.gpuCount) throw hostErrors.insufficientGpus(req.gpuCount, taken.length);
  const rank = (g: { index: number }) => (prefer.includes(g.index) ? 0 : 1);
  const gpus = taken.sort((a, b) => rank(a) - rank(b) || a.index - b.index);

  let ports: number[] = [];
  if (portCount > 0) {
    ports = await repo.takeFreePorts(host.id, req.instanceId, portCount);
    if (ports.length < portCount) ports = await topUpPorts(tx, host, req.instanceId, ports, portCount);
  }

  return {
    hostId: host.id,
    instanceId: req.instanceId,
    gpus: gpus.map(({ index, uuid, model }) => ({ index, uuid, model })),
    ports,
  };
}

/**
 * Takes back exactly the GPUs `indices` of a host for an instance being powered on (its container
 * was made with them), under the host's share lock. Locks no other GPU: a power on that cannot
 * have its own must leave the others to concurrent creates, which skip locked rows and would be
 * refused for a GPU it only held until its rollback. Short, it answers how many GPUs of the host
 * are idle besides those it got (the customer may agree to take others); its caller then rolls
 * back what it took.
 */
export async function retakeGpus(
  tx: Tx,
  req: { hostId: number; instanceId: number; indices: number[] },
): Promise<{ retaken: true } | { retaken: false; idle: number }> {
  const repo = createAllocationRepository({ db: tx });
  const host = activeHost(await shareHost(tx, req.hostId));
  const count = req.indices.length;
  const taken = await repo.takeIdleGpus(host.id, req.instanceId, count, req.indices, new Date(), true);
  if (taken.length === count) return { retaken: true };
  return { retaken: false, idle: taken.length + (await repo.idleGpuCount(host.id)) };
}

/**
 * Fewer free ports than asked (`have`): the pool may never have been filled, or a concurrent
 * first allocation is filling it right now (its rows are not visible to us yet). Adding the
 * range's missing ports waits for that insert to commit and adds none of its ports twice; the
 * next statement then sees them. Safe under the host's share lock: the range cannot change, and
 * nothing is deleted. Answers every port the instance now holds, ascending; throws when short.
 */
export async function topUpPorts(
  tx: Tx,
  host: PortRange,
  instanceId: number,
  have: number[],
  portCount: number,
): Promise<number[]> {
  const repo = createAllocationRepository({ db: tx });
  await repo.insertMissingPorts(host);
  const more = await repo.takeFreePorts(host.id, instanceId, portCount - have.length);
  const ports = [...have, ...more].sort((a, b) => a - b);
  if (ports.length < portCount) throw hostErrors.insufficientPorts();
  return ports;
}

/**
 * Returns what an instance holds on a host, under the host's share lock (only its own rows change). `gpus: false` keeps the GPUs
 * (packages keep theirs when powered off), `ports: false` keeps the ports (a stopped container
 * keeps its port bindings), a list of ports gives back only those of them it holds (extra ports
 * dropped). Releasing nothing that is held is not an error.
 */
export async function releaseOnHost(
  tx: Tx,
  req: { hostId: number; instanceId: number; gpus?: boolean; ports?: boolean | number[] },
): Promise<{ gpus: number[]; ports: number[] }> {
  await shareHost(tx, req.hostId);
  const repo = createAllocationRepository({ db: tx });
  const now = new Date();
  const gpus = req.gpus === false ? [] : await repo.releaseGpus(req.hostId, req.instanceId, now);
  const only = Array.isArray(req.ports) ? req.ports : undefined;
  const ports =
    req.ports === false || only?.length === 0
      ? []
      : await repo.releasePorts(req.hostId, req.instanceId, only);
  return {
    gpus: gpus.map((g) => g.index).sort((a, b) => a - b),
    ports: ports.map((p) => p.port).sort((a, b) => a - b),
  };
}
