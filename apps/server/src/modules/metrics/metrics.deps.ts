import type { AppMetrics } from './metrics.usecases.ts';

export interface MetricsDeps {
  metrics: AppMetrics;
  /** Who may scrape (`Authorization: Bearer <token>`); without it /metrics answers 404. */
  token: string | undefined;
}
