import { z } from 'zod';

/** How often the host drivers sample every running instance (issue 31). */
export const SAMPLE_INTERVAL_MS = 15_000;
/** Raw 15 s samples are kept this long; older ones live on as 5-minute rollups. */
export const RAW_SAMPLE_RETENTION_MS = 24 * 3600_000;
export const ROLLUP_BUCKET_MS = 5 * 60_000;
export const ROLLUP_RETENTION_MS = 30 * 24 * 3600_000;

export const METRICS_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type MetricsRange = (typeof METRICS_RANGES)[number];

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

/**
 * What each range covers and the spacing of its points: 1 h of raw 15 s samples; 24 h thinned to
 * one-minute averages (1,440 points); 7 d of the 5-minute rollups (2,016); 30 d of half-hour
 * averages of the rollups (1,440). Every chart stays under about 2,000 points.
 */
export const METRICS_RANGE_SPECS: Readonly<
  Record<MetricsRange, { windowMs: number; stepSeconds: number; source: 'raw' | 'rollup' }>
> = {
  '1h': { windowMs: 3600_000, stepSeconds: SAMPLE_INTERVAL_MS / 1000, source: 'raw' },
  '24h': { windowMs: 24 * 3600_000, stepSeconds: 60, source: 'raw' },
  '7d': { windowMs: 7 * 24 * 3600_000, stepSeconds: ROLLUP_BUCKET_MS / 1000, source: 'rollup' },
  '30d': { windowMs: 30 * 24 * 3600_000, stepSeconds: 1800, source: 'rollup' },
};

/** The sparkline: the last hour, one point per minute (the busiest GPU's average utilisation). */
export const SPARKLINE_WINDOW_MS = 3600_000;
export const SPARKLINE_STEP_MS = 60_000;
