import type { AdminActor, HostDetail } from '@gpu/shared';
import type { Tx } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import { lockHost } from './allocation.ts';
import { isDriverError } from './drivers/driver-errors.ts';
import type { HostRecord, ProbeResult } from './drivers/host-driver.ts';
import { hostErrors } from './hosts.errors.ts';
import { createHostsRepository } from './hosts.repository.ts';
import { getHost, type HostsDeps } from './hosts.usecases.ts';
import { syncGpuInventory } from './inventory.ts';

/** Runs a host's probe; a driver error counts as "unreachable" with its message. */
export async function probeHost(
  deps: Pick<HostsDeps, 'hostDrivers'>,
  host: HostRecord,
): Promise<ProbeResult> {
  try {
    return await deps.hostDrivers.forHost(host).probe();
  } catch (e) {
    if (!isDriverError(e)) throw e;
    return { reachable: false, gpus: [], warnings: [], error: e.message, detail: e.detail };
  }
}

/**
 * Stores what a probe found, under the host lock: reachability, engine and NVIDIA versions,
 * runtime, CPU/memory when the host had none, and the GPU inventory the market counts.
 */
export async function storeProbe(tx: Tx, now: Date, id: number, probe: ProbeResult) {
  const locked = await lockHost(tx, id);
  await createHostsRepository({ db: tx }).set(id, {
    lastProbeAt: now,
    lastProbeOk: probe.reachable,
    lastProbeError: probe.reachable ? null : (probe.error ?? '无法连接'),
    ...(probe.reachable
      ? {
          engineVersion: probe.engineVersion ?? '',
          nvidiaRuntime: probe.nvidiaRuntime ?? null,
          gpuSource: probe.gpuSource ?? locked.gpuSource,
          ...(probe.driverVersion ? { nvidiaDriver: probe.driverVersion } : {}),
          ...(probe.cudaVersion ? { cudaVersion: probe.cudaVersion } : {}),
          ...(locked.cpuCores === 0 && probe.cpuCores ? { cpuCores: probe.cpuCores } : {}),
          ...(locked.memoryGb === 0 && probe.memoryGb ? { memoryGb: probe.memoryGb } : {}),
        }
      : {}),
    updatedAt: now,
  });
  return probe.reachable ? syncGpuInventory(tx, id, probe.gpus) : null;
}

/**
 * POST /api/admin/hosts/{id}/test-connection: the probe runs outside any transaction (it is
 * network I/O); what it found is stored and audited in one.
 */
export async function testConnection(deps: HostsDeps, actor: AdminActor, id: number) {
  const host = await createHostsRepository({ db: deps.db }).find(id);
  if (!host) throw hostErrors.notFound();
  const probe = await probeHost(deps, host);
  // The admin gets a fixed reason; what the target said stays in the server log.
  if (!probe.reachable || probe.detail) {
    deps.log?.warn(
      { hostId: id, reachable: probe.reachable, reason: probe.error ?? null, detail: probe.detail ?? null },
      'host connection test: failure detail',
    );
  }
  const detail: HostDetail = await deps.db.transaction(async (tx) => {
    await storeProbe(tx, deps.clock.now(), id, probe);
    await recordAudit(tx, actor, 'hosts.test_connection', `host:${id}`, {
      reachable: probe.reachable,
      gpus: probe.gpus.length,
      error: probe.error ?? null,
    });
    return getHost({ db: tx }, id);
  });
  return {
    reachable: probe.reachable,
    engineVersion: probe.engineVersion ?? '',
    nvidiaRuntime: probe.nvidiaRuntime ?? false,
    driverVersion: probe.driverVersion ?? '',
    cudaVersion: probe.cudaVersion ?? '',
    gpuSource: probe.gpuSource ?? '',
    gpus: probe.gpus,
    warnings: probe.warnings,
    error: probe.reachable ? null : (probe.error ?? '无法连接'),
    host: detail,
  };
}
