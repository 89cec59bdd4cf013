import type Docker from 'dockerode';
import { LABELS } from '../host-driver.ts';
import { instanceIdOf } from '../labels.ts';
import type { ContainerSample } from '../sampling.ts';
import { gpuIndicesOf } from './create-request.ts';
import { readHostGpus } from './gpu-monitor.ts';
import { cpuPercentOf, type EngineStats, memoryOf } from './stats.ts';

/** Engine calls in flight at once per host: stats of a busy host take about a second each. */
const PARALLEL = 8;

async function eachLimited<T, R>(items: T[], fn: (item: T) => Promise<R | null>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const r = await fn(items[next++] as T);
      if (r !== null) out.push(r);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

/**
 * One sample per running container of the platform: CPU and memory from the engine's stats (one
 * read, `stream=false`), disk used as the container's writable layer (`SizeRw`: what the user
 * wrote to the system disk; the data volume is not counted), the limit from `StorageOpt` where the
 * storage driver enforces one, and the GPUs from one nvidia-smi run on the host. A container that
 * stops or goes away meanwhile is left out.
 */
export async function sampleDocker(
  docker: Docker,
  opts: { probeImage: string; nvidiaRuntime: () => Promise<boolean> },
): Promise<ContainerSample[]> {
  const rows = await docker.listContainers({
    size: true,
    filters: { label: [`${LABELS.managed}=true`], status: ['running'] },
  });
  if (rows.length === 0) return [];
  const gpus = await readHostGpus(docker, {
    image: opts.probeImage,
    nvidiaRuntime: await opts.nvidiaRuntime(),
  });
  const byIndex = new Map(gpus.map((g) => [g.index, g]));
  return eachLimited(rows, async (row) => {
    const instanceId = instanceIdOf(row.Labels ?? {});
    if (instanceId === null) return null;
    const c = docker.getContainer(row.Id);
    let info: Docker.ContainerInspectInfo;
    let stats: EngineStats;
    try {
      [info, stats] = await Promise.all([c.inspect(), c.stats({ stream: false }) as Promise<EngineStats>]);
    } catch {
      return null;
    }
    const memory = memoryOf(stats);
    const storage = (info.HostConfig as { StorageOpt?: Record<string, string> }).StorageOpt?.size;
    return {
      containerId: row.Id,
      instanceId,
      gpus: gpuIndicesOf(info.HostConfig.DeviceRequests, info.Config.Env).flatMap((index) => {
        const g = byIndex.get(index);
        return g ? [{ index, util: g.util, memUsedMib: g.memUsedMib, memTotalMib: g.memTotalMib }] : [];
      }),
      cpuPercent: cpuPercentOf(stats),
      memUsedBytes: memory.usedBytes,
      memLimitBytes: memory.limitBytes,
      diskUsedBytes: (row as { SizeRw?: number }).SizeRw ?? 0,
      diskLimitBytes: storage ? sizeBytes(storage) : null,
    };
  });
}

/** `20G`, `512m`, `1073741824` (the engine's StorageOpt size) in bytes; null when unreadable. */
export function sizeBytes(v: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(v.trim());
  if (!m) return null;
  const power = ['', 'k', 'm', 'g', 't'].indexOf((m[2] ?? '').toLowerCase());
  return Math.round(Number(m[1]) * 1024 ** power);
}
