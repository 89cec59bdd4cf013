import { z } from 'zod';

import { METRICS_RANGES } from './monitoring-constants.ts';

export * from './monitoring-constants.ts';

/** One instance at one moment, as a host driver reports it. Sizes in bytes, GPU memory in MiB. */
export interface InstanceSample {
  instanceId: number;
  at: Date;
  /** Per GPU, 0–100, in the order of the instance's GPUs. Empty with no GPU. */
  gpuUtil: number[];
  gpuMemUsedMib: number[];
  gpuMemTotalMib: number[];
  /** As `docker stats` counts it: 100 is one core busy, so 16 busy cores read 1,600 (cores = cpuPercent / 100). */
  cpuPercent: number;
  memUsedBytes: number;
  memLimitBytes: number;
  diskUsedBytes: number;
  diskLimitBytes: number;
}

/**
 * A chart's points: `at` in ISO UTC (the start of the point's step); per-GPU arrays in GPU order,
 * averaged over the step. `cpuPercent` as InstanceSample's (100 = one core); disk used is the
 * system disk's writable layer (docker: SizeRw), not the data volume.
 */
export const metricsPointSchema = z.object({
  at: z.string(),
  gpuUtil: z.array(z.number()),
  gpuMemUsedMib: z.array(z.number()),
  gpuMemTotalMib: z.array(z.number()),
  cpuPercent: z.number(),
  memUsedBytes: z.number(),
  memLimitBytes: z.number(),
  diskUsedBytes: z.number(),
  diskLimitBytes: z.number(),
});
export type MetricsPoint = z.infer<typeof metricsPointSchema>;

export const metricsSeriesSchema = z.object({
  range: z.enum(METRICS_RANGES),
  /** Seconds between points: 15 for raw samples, 300 for rollups. */
  stepSeconds: z.number().int(),
  points: z.array(metricsPointSchema),
});
export type MetricsSeries = z.infer<typeof metricsSeriesSchema>;

/**
 * GET /api/admin/hosts/:id/metrics?range=: a host's GPUs by their index on the host (utilisation
 * and memory of whichever instance held each; 0 when none did), and the host's instances' CPU
 * (100 = one core), memory and disk summed.
 */
export const hostMetricsPointSchema = z.object({
  at: z.string(),
  gpuUtil: z.array(z.number()),
  gpuMemUsedMib: z.array(z.number()),
  cpuPercent: z.number(),
  memUsedBytes: z.number(),
  diskUsedBytes: z.number(),
});
export const hostMetricsSeriesSchema = z.object({
  range: z.enum(METRICS_RANGES),
  stepSeconds: z.number().int(),
  gpuCount: z.number().int(),
  points: z.array(hostMetricsPointSchema),
});
export type HostMetricsSeries = z.infer<typeof hostMetricsSeriesSchema>;

/** GET /api/gpu/instances/gpu-sparklines: the last hour of each running instance's busiest GPU, per minute. */
export const gpuSparklinesSchema = z.array(
  z.object({ instanceUuid: z.string(), points: z.array(z.number()) }),
);
export type GpuSparklines = z.infer<typeof gpuSparklinesSchema>;

/** `?range=` of the chart routes; absent means the last hour. */
export const metricsQuerySchema = z.object({
  range: z.enum(METRICS_RANGES, { message: '时间范围只能是 1h、24h、7d 或 30d' }).default('1h'),
});
