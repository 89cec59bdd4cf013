import { GIB } from '@gpu/shared/sizes';
import type { GpuInfo } from '../host-driver.ts';
import type { ContainerSample } from '../sampling.ts';
import type { SimulatedContainerRow } from './simulated.repository.ts';

/** Busy and idle phases change at most twice every 40 minutes, so charts move and the idle guard has work. */
const PHASE_MIN_MS = 10 * 60_000;
const PHASE_SPREAD_MS = 30 * 60_000;
/** A disk grows this much an hour of running, from a 2 GiB system. */
const DISK_BASE_BYTES = 2 * GIB;
const DISK_GROWTH_PER_HOUR = 64 * 1024 ** 2;

/** 0 ≤ x < 1, the same for the same integers (a small integer hash: no state, no randomness). */
export function unitHash(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p | 0), 0x85ebca6b);
    h = Math.imul(h ^ Math.floor(p / 2 ** 32), 0xc2b2ae35);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2d);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/**
 * Whether an instance's generated load is in a busy phase at `t`: each 40-minute cell splits at a
 * point 10–40 min in (its id and the cell pick it), each part busy with odds of six in ten.
 */
export function busyAt(instanceId: number, t: number): boolean {
  // Walk phases of a fixed 40-minute grid; each grid cell holds one phase boundary.
  const cell = Math.floor(t / (PHASE_MIN_MS + PHASE_SPREAD_MS));
  const boundary = PHASE_MIN_MS + unitHash(instanceId, cell, 1) * PHASE_SPREAD_MS;
  const inCell = t - cell * (PHASE_MIN_MS + PHASE_SPREAD_MS);
  const half = inCell < boundary ? 0 : 1;
  return unitHash(instanceId, cell, 2 + half) < 0.6;
}

/**
 * One running simulated container's sample at `at`: deterministic from its instance id and the
 * time. `row.gpuLoad` (setSimulatedGpuLoad) fixes every GPU's utilisation instead.
 */
export function simulatedSample(
  row: SimulatedContainerRow,
  instanceId: number,
  inventory: GpuInfo[],
  at: Date,
): ContainerSample {
  const t = at.getTime();
  const slot = Math.floor(t / 15_000);
  const busy = row.gpuLoad === null ? busyAt(instanceId, t) : row.gpuLoad >= 50;
  const noise = (k: number) => unitHash(instanceId, slot, k);
  const memoryOf = new Map(inventory.map((g) => [g.index, g.memoryGb * 1024]));
  const gpus = row.gpuIndices.map((index, position) => {
    const util =
      row.gpuLoad ??
      (busy && (position === 0 || noise(10 + position) < 0.85)
        ? 70 + Math.floor(noise(20 + position) * 31)
        : Math.floor(noise(30 + position) * 3));
    const memTotalMib = memoryOf.get(index) ?? 24_576;
    const share = util >= 50 ? 0.55 + noise(40 + position) * 0.4 : 0.01 + noise(40 + position) * 0.02;
    return { index, util, memUsedMib: Math.round(memTotalMib * share), memTotalMib };
  });
  const cores = row.cpus ?? 1;
  const memLimitBytes = row.memoryGb === null ? null : row.memoryGb * GIB;
  const memBase = memLimitBytes ?? 8 * GIB;
  const ranHours = row.startedAt ? Math.max(0, t - row.startedAt.getTime()) / 3600_000 : 0;
  const diskLimitBytes = row.diskGb === null ? null : row.diskGb * GIB;
  const diskUsed = DISK_BASE_BYTES + Math.floor(ranHours * DISK_GROWTH_PER_HOUR);
  return {
    containerId: row.id,
    instanceId,
    gpus,
    cpuPercent: Math.round(cores * (busy ? 40 + noise(50) * 50 : 1 + noise(50) * 4) * 10) / 10,
    memUsedBytes: Math.round(memBase * (busy ? 0.5 + noise(60) * 0.3 : 0.1 + noise(60) * 0.1)),
    memLimitBytes,
    diskUsedBytes: diskLimitBytes === null ? diskUsed : Math.min(diskUsed, Math.floor(diskLimitBytes * 0.9)),
    diskLimitBytes,
  };
}
