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
