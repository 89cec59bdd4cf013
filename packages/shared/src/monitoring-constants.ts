/**
 * Monitoring's constants without zod (issue 31): the web imports them from here, so the instance
 * list and the chart drawers do not carry monitoring.ts's schemas (and zod) in their chunks.
 * monitoring.ts re-exports all of it.
 */

/** How often the host drivers sample every running instance (issue 31). */
export const SAMPLE_INTERVAL_MS = 15_000;
/** Raw 15 s samples are kept this long; older ones live on as 5-minute rollups. */
export const RAW_SAMPLE_RETENTION_MS = 24 * 3600_000;
export const ROLLUP_BUCKET_MS = 5 * 60_000;
export const ROLLUP_RETENTION_MS = 30 * 24 * 3600_000;

export const METRICS_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type MetricsRange = (typeof METRICS_RANGES)[number];

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
