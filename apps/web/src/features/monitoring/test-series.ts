import type { HostMetricsSeries, MetricsRange, MetricsSeries } from '@gpu/shared/monitoring';
import { GIB } from '@gpu/shared/sizes';

/** An instance's series as the API answers it: 2 GPUs, a point per `stepSeconds` (web tests). */
export function instanceSeries(range: MetricsRange, count: number, stepSeconds = 15): MetricsSeries {
  const end = Date.parse('2026-11-26T06:00:00.000Z');
  return {
    range,
    stepSeconds,
    points: Array.from({ length: count }, (_, i) => ({
      at: new Date(end - (count - 1 - i) * stepSeconds * 1000).toISOString(),
      gpuUtil: [10 + i, 90 - i],
      gpuMemUsedMib: [1024 * (i + 1), 2048],
      gpuMemTotalMib: [81_559, 81_559],
      cpuPercent: 120 + i,
      memUsedBytes: 8 * GIB,
      memLimitBytes: 64 * GIB,
      diskUsedBytes: 20 * GIB,
      diskLimitBytes: 100 * GIB,
    })),
  };
}

/** A host's series: 4 GPUs by index, sums of its instances (web tests). */
export function hostSeries(range: MetricsRange, count: number): HostMetricsSeries {
  const end = Date.parse('2026-11-26T06:00:00.000Z');
  return {
    range,
    stepSeconds: 300,
    gpuCount: 4,
    points: Array.from({ length: count }, (_, i) => ({
      at: new Date(end - (count - 1 - i) * 300_000).toISOString(),
      gpuUtil: [50, 0, 0, 100],
      gpuMemUsedMib: [4096, 0, 0, 8192],
      cpuPercent: 300,
      memUsedBytes: 40 * GIB,
      diskUsedBytes: 200 * GIB,
    })),
  };
}
