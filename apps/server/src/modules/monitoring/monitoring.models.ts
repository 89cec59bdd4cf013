import {
  type GpuSparklines,
  type HostMetricsSeries,
  type InstanceSample,
  type MetricsPoint,
  SAMPLE_INTERVAL_MS,
  SPARKLINE_STEP_MS,
  SPARKLINE_WINDOW_MS,
} from '@gpu/shared/monitoring';
import { GIB } from '@gpu/shared/sizes';
import type { ContainerSample } from '../hosts/index.ts';

/** A stored sample: what InstanceSample says, plus the host and its GPU index of each position. */
export type SampleRow = InstanceSample & { hostId: number; gpuIndexes: number[] };

/** A raw sample or a rollup as the charts read it (`at`: the sample's slot or the bucket's start). */
export type ChartRow = Omit<SampleRow, 'hostId'>;

/** The start of the 15 s slot `t` falls in: every replica sampling that slot writes the same key. */
export const slotOf = (t: Date) =>
  new Date(Math.floor(t.getTime() / SAMPLE_INTERVAL_MS) * SAMPLE_INTERVAL_MS);

export interface SampledInstance {
  id: number;
  hostId: number;
  gpuIndices: number[];
  gpuCount: number;
  memoryPerGpuGb: number;
  systemDiskGb: number;
}

/**
 * A driver's sample as a row: GPUs in the instance's order (those the host reported; none where it
 * cannot tell), limits the driver did not know from the instance's SKU.
 */
export function toSampleRow(inst: SampledInstance, s: ContainerSample, at: Date): SampleRow {
  const byIndex = new Map(s.gpus.map((g) => [g.index, g]));
  const order = inst.gpuIndices.length > 0 ? inst.gpuIndices : s.gpus.map((g) => g.index);
  const gpus = order.flatMap((i) => {
    const g = byIndex.get(i);
    return g ? [g] : [];
  });
  return {
    instanceId: inst.id,
    at,
    hostId: inst.hostId,
    gpuIndexes: gpus.map((g) => g.index),
    gpuUtil: gpus.map((g) => Math.round(g.util)),
    gpuMemUsedMib: gpus.map((g) => Math.round(g.memUsedMib)),
    gpuMemTotalMib: gpus.map((g) => Math.round(g.memTotalMib)),
    cpuPercent: s.cpuPercent,
    memUsedBytes: Math.round(s.memUsedBytes),
    memLimitBytes: s.memLimitBytes ?? inst.memoryPerGpuGb * inst.gpuCount * GIB,
    diskUsedBytes: Math.round(s.diskUsedBytes),
    diskLimitBytes: s.diskLimitBytes ?? inst.systemDiskGb * GIB,
  };
}

const r1 = (n: number) => Math.round(n * 10) / 10;
const avg = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const bucketsOf = (rows: ChartRow[], stepSeconds: number) => {
  const step = stepSeconds * 1000;
  const out = new Map<number, ChartRow[]>();
  for (const row of rows) {
    const key = Math.floor(row.at.getTime() / step) * step;
    const list = out.get(key);
    if (list) list.push(row);
    else out.set(key, [row]);
  }
  return out;
};

/** Sums per array position, and how many rows had that position. */
function addInto(sum: number[], count: number[], xs: number[]) {
  for (let k = 0; k < xs.length; k++) {
    sum[k] = (sum[k] ?? 0) + (xs[k] as number);
    count[k] = (count[k] ?? 0) + 1;
  }
}

/**
 * One instance's rows as chart points, averaged over each `stepSeconds`. Rows come sorted by time;
 * one pass with plain loops (a week is 2,016 rows per request: this is the route's hot path).
 */
export function instancePoints(rows: ChartRow[], stepSeconds: number): MetricsPoint[] {
  const step = stepSeconds * 1000;
  const out: MetricsPoint[] = [];
  let i = 0;
  while (i < rows.length) {
    const key = Math.floor((rows[i] as ChartRow).at.getTime() / step) * step;
    const util: number[] = [];
    const utilN: number[] = [];
    const mem: number[] = [];
    const memN: number[] = [];
    const total: number[] = [];
    let cpu = 0;
    let memUsed = 0;
    let memLimit = 0;
    let disk = 0;
    let diskLimit = 0;
    let n = 0;
    for (; i < rows.length; i++) {
      const r = rows[i] as ChartRow;
      if (Math.floor(r.at.getTime() / step) * step !== key) break;
      addInto(util, utilN, r.gpuUtil);
      addInto(mem, memN, r.gpuMemUsedMib);
      for (let k = 0; k < r.gpuMemTotalMib.length; k++)
        total[k] = Math.max(total[k] ?? 0, r.gpuMemTotalMib[k] as number);
      cpu += r.cpuPercent;
      memUsed += r.memUsedBytes;
      disk += r.diskUsedBytes;
      memLimit = Math.max(memLimit, r.memLimitBytes);
      diskLimit = Math.max(diskLimit, r.diskLimitBytes);
      n++;
    }
    out.push({
      at: new Date(key).toISOString(),
      gpuUtil: util.map((x, k) => r1(x / (utilN[k] as number))),
      gpuMemUsedMib: mem.map((x, k) => Math.round(x / (memN[k] as number))),
      gpuMemTotalMib: total,
      cpuPercent: r1(cpu / n),
      memUsedBytes: Math.round(memUsed / n),
      memLimitBytes: memLimit,
      diskUsedBytes: Math.round(disk / n),
      diskLimitBytes: diskLimit,
    });
  }
  return out;
}

/**
 * A host's rows (all its instances) as chart points: each host GPU index gets the figures of
 * whichever instance held it; CPU, memory and disk are the instances' sum, averaged over the
 * sample times in the step (an instance sampled in half of them counts half).
 */
export function hostPoints(
  rows: ChartRow[],
  stepSeconds: number,
  gpuCount: number,
): HostMetricsSeries['points'] {
  let width = gpuCount;
  for (const r of rows) for (const i of r.gpuIndexes) width = Math.max(width, i + 1);
  return [...bucketsOf(rows, stepSeconds)].map(([key, group]) => {
    const moments = new Set(group.map((r) => r.at.getTime())).size;
    const util = Array.from({ length: width }, () => [] as number[]);
    const mem = Array.from({ length: width }, () => [] as number[]);
    for (const r of group) {
      r.gpuIndexes.forEach((index, k) => {
        util[index]?.push(r.gpuUtil[k] ?? 0);
        mem[index]?.push(r.gpuMemUsedMib[k] ?? 0);
      });
    }
    const sum = (pick: (r: ChartRow) => number) => group.reduce((a, r) => a + pick(r), 0) / moments;
    return {
      at: new Date(key).toISOString(),
      gpuUtil: util.map((xs) => r1(avg(xs))),
      gpuMemUsedMib: mem.map((xs) => Math.round(avg(xs))),
      cpuPercent: r1(sum((r) => r.cpuPercent)),
      memUsedBytes: Math.round(sum((r) => r.memUsedBytes)),
      diskUsedBytes: Math.round(sum((r) => r.diskUsedBytes)),
    };
  });
}

/**
 * The last hour per minute for each instance (the current minute last); a minute without samples
 * reads 0, as an instance that was not running then used nothing.
 */
export function sparklinePoints(
  instanceIds: number[],
  rows: Array<{ instanceId: number; minute: string | number; util: number }>,
  now: Date,
): GpuSparklines {
  const lastMinute = Math.floor(now.getTime() / SPARKLINE_STEP_MS) * SPARKLINE_STEP_MS;
  const count = SPARKLINE_WINDOW_MS / SPARKLINE_STEP_MS;
  const first = lastMinute - (count - 1) * SPARKLINE_STEP_MS;
  const byInstance = new Map(instanceIds.map((id) => [id, new Array<number>(count).fill(0)]));
  for (const r of rows) {
    const k = (Number(r.minute) * 1000 - first) / SPARKLINE_STEP_MS;
    const points = byInstance.get(Number(r.instanceId));
    if (points && k >= 0 && k < count) points[k] = Math.round(Number(r.util));
  }
  return instanceIds.map((id) => ({ instanceUuid: String(id), points: byInstance.get(id) ?? [] }));
}
