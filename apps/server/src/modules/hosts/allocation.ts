import { INSTANCE_CONTAINER_PORTS } from '@gpu/shared';
import type { Tx } from '../../app/db/client.ts';
import { createAllocationRepository } from './allocation.repository.ts';
import { hostErrors } from './hosts.errors.ts';
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
  const host = await createAllocationRepository({ db: tx }).lockHost(hostId);
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
  const repo = createAllocationRepository({ db: tx });
  const host = await lockHost(tx, req.hostId);
  if (host.status !== 'ACTIVE') throw hostErrors.notActive();

  const idle = await repo.idleGpus(host.id);
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
    if ((await repo.portPoolSize(host.id)) === 0) await syncPortPool(tx, host);
    ports = await repo.freePorts(host.id, portCount);
    if (ports.length < portCount) throw hostErrors.insufficientPorts();
  }

  const now = new Date();
  if (gpus.length > 0)
    await repo.assignGpus(
      gpus.map((g) => g.id),
      req.instanceId,
      now,
    );
  if (ports.length > 0) await repo.assignPorts(host.id, ports, req.instanceId);
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
  const repo = createAllocationRepository({ db: tx });
  const now = new Date();
  const gpus = req.gpus === false ? [] : await repo.releaseGpus(req.hostId, req.instanceId, now);
  const ports = req.ports === false ? [] : await repo.releasePorts(req.hostId, req.instanceId);
  return {
    gpus: gpus.map((g) => g.index).sort((a, b) => a - b),
    ports: ports.map((p) => p.port).sort((a, b) => a - b),
  };
}
