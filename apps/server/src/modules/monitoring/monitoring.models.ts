import {
  type GpuSparklines,
  type HostMetricsSeries,
  type InstanceSample,
  type MetricsPoint,
  SAMPLE_INTERVAL_MS,
  SPARKLINE_STEP_MS,
  SPARKLINE_WINDOW_MS,
} from '@gpu/shared/monitoring';
import type { ContainerSample } from '../hosts/index.ts';

const GIB = 1024 ** 3;

/** A raw sample or a rollup as the charts read it (`at`: the sample's slot or the bucket's start). */
export interface ChartRow {
  instanceId: number;
  at: Date;
  gpuIndexes: number[];
  gpuUtil: number[];
  gpuMemUsedMib: number[];
  gpuMemTotalMib: number[];
  cpuPercent: number;
  memUsedBytes: number;
  memLimitBytes: number;
  diskUsedBytes: number;
  diskLimitBytes: number;
}

/** A stored sample: what InstanceSample says, plus the host and its GPU index of each position. */
export type SampleRow = InstanceSample & { hostId: number; gpuIndexes: number[] };

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
const column = (rows: ChartRow[], pick: (r: ChartRow) => number[]) => {
  const width = Math.max(0, ...rows.map((r) => pick(r).length));
  return Array.from({ length: width }, (_, k) =>
    rows.flatMap((r) => (k < pick(r).length ? [pick(r)[k] as number] : [])),
  );
};

/** One instance's rows as chart points, averaged over each `stepSeconds` (rows come sorted by time). */
export function instancePoints(rows: ChartRow[], stepSeconds: number): MetricsPoint[] {
  return [...bucketsOf(rows, stepSeconds)].map(([key, group]) => ({
    at: new Date(key).toISOString(),
    gpuUtil: column(group, (r) => r.gpuUtil).map((xs) => r1(avg(xs))),
    gpuMemUsedMib: column(group, (r) => r.gpuMemUsedMib).map((xs) => Math.round(avg(xs))),
    gpuMemTotalMib: column(group, (r) => r.gpuMemTotalMib).map((xs) => Math.max(...xs)),
    cpuPercent: r1(avg(group.map((r) => r.cpuPercent))),
    memUsedBytes: Math.round(avg(group.map((r) => r.memUsedBytes))),
    memLimitBytes: Math.max(...group.map((r) => r.memLimitBytes)),
    diskUsedBytes: Math.round(avg(group.map((r) => r.diskUsedBytes))),
    diskLimitBytes: Math.max(...group.map((r) => r.diskLimitBytes)),
  }));
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
