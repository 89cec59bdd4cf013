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
  cpuPercent: number;
  memUsedBytes: number;
  memLimitBytes: number;
  diskUsedBytes: number;
  diskLimitBytes: number;
}

/** A chart's points: `at` in ISO UTC; per-GPU arrays in GPU order (averages over a rollup bucket). */
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
 * and memory of whichever instance held each), and the host's instances' CPU, memory and disk summed.
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
