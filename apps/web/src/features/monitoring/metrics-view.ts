import type { HostMetricsSeries, MetricsSeries } from '@gpu/shared/monitoring';
import { GIB, MIB } from '@gpu/shared/sizes';

/**
 * What the charts draw, the same for an instance and for a host: per-GPU lines, CPU, memory and
 * disk, sizes in GiB (so the axes tick at whole GB: 20, 40, 60, not 18.6, 37.3), `at` in epoch ms. A null point breaks the line where samples are missing
 * (the instance was off), so a pause never shows as a straight ramp.
 */
export interface MetricsView {
  stepSeconds: number;
  gpuCount: number;
  times: number[];
  gpuUtil: (number | null)[][];
  gpuMem: (number | null)[][];
  /** The largest GPU's memory in GiB (the memory chart's top); null when unknown (hosts). */
  gpuMemTotal: number | null;
  cpuPercent: (number | null)[];
  memUsed: (number | null)[];
  /** Per point; null on hosts (a sum of limits says little). */
  memLimit: (number | null)[] | null;
  diskUsed: (number | null)[];
  diskLimit: (number | null)[] | null;
}

interface CommonPoint {
  at: string;
  gpuUtil: number[];
  gpuMemUsedMib: number[];
  cpuPercent: number;
  memUsedBytes: number;
  diskUsedBytes: number;
  memLimitBytes?: number;
  diskLimitBytes?: number;
}

const gib = (bytes: number) => bytes / GIB;

/** A gap longer than this many steps between two points is drawn as a break. */
const GAP_STEPS = 2;

function build(
  stepSeconds: number,
  gpuCount: number,
  points: CommonPoint[],
  limits: boolean,
  gpuMemTotal: number | null,
): MetricsView {
  const view: MetricsView = {
    stepSeconds,
    gpuCount,
    times: [],
    gpuUtil: Array.from({ length: gpuCount }, () => []),
    gpuMem: Array.from({ length: gpuCount }, () => []),
    gpuMemTotal,
    cpuPercent: [],
    memUsed: [],
    memLimit: limits ? [] : null,
    diskUsed: [],
    diskLimit: limits ? [] : null,
  };
  const push = (at: number, p: CommonPoint | null) => {
    view.times.push(at);
    for (let g = 0; g < gpuCount; g++) {
      view.gpuUtil[g]?.push(p?.gpuUtil[g] ?? null);
      const mib = p?.gpuMemUsedMib[g];
      view.gpuMem[g]?.push(mib === undefined ? null : gib(mib * MIB));
    }
    view.cpuPercent.push(p ? p.cpuPercent : null);
    view.memUsed.push(p ? gib(p.memUsedBytes) : null);
    // A limit of 0 means none was set: no limit line.
    view.memLimit?.push(p?.memLimitBytes ? gib(p.memLimitBytes) : null);
    view.diskUsed.push(p ? gib(p.diskUsedBytes) : null);
    view.diskLimit?.push(p?.diskLimitBytes ? gib(p.diskLimitBytes) : null);
  };
  let last: number | null = null;
  for (const p of points) {
    const at = Date.parse(p.at);
    if (last !== null && at - last > GAP_STEPS * stepSeconds * 1000) push(last + stepSeconds * 1000, null);
    push(at, p);
    last = at;
  }
  return view;
}

/** An instance's series: GPUs in the instance's order, memory and disk with their limits. */
export function instanceView(series: MetricsSeries): MetricsView {
  // Loops, not Math.max(...): 30 days of 8 GPUs is too many arguments for one call.
  let gpuCount = 0;
  let totalMib = 0;
  for (const p of series.points) {
    gpuCount = Math.max(gpuCount, p.gpuUtil.length);
    for (const mib of p.gpuMemTotalMib) totalMib = Math.max(totalMib, mib);
  }
  const gpuMemTotal = totalMib > 0 ? gib(totalMib * MIB) : null;
  return build(series.stepSeconds, gpuCount, series.points, true, gpuMemTotal);
}

/** A host's series: GPUs by their index on the host, its instances' CPU, memory and disk summed. */
export const hostView = (series: HostMetricsSeries): MetricsView =>
  build(series.stepSeconds, series.gpuCount, series.points, false, null);
