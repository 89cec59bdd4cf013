import type { AppInstance } from '../../platform/http/types.ts';
import { defineModule } from '../../platform/module.ts';
import type { MetricsDeps } from './metrics.deps.ts';
import { metricsRoutes } from './metrics.routes.ts';
import { createMetrics } from './metrics.usecases.ts';

/**
 * Prometheus metrics at GET /metrics. Its onResponse hook is added in the hooks phase, before any
 * route; the route label is the pattern (`/api/instances/:id`), never the raw URL, so the
 * number of series stays bounded.
 */
export const metricsModule = defineModule({
  name: 'metrics',
  createDeps: (core, needs: { METRICS_TOKEN?: string }): MetricsDeps => ({
    metrics: createMetrics({ db: core.db, tasks: core.tasks }),
    token: needs.METRICS_TOKEN,
  }),
  hooks: (app: AppInstance, { metrics, token }: MetricsDeps) => {
    // A callback hook, not async: no promise per request for synchronous work (issue 15).
    // Without METRICS_TOKEN nobody can scrape (404), so nothing is counted either.
    if (token)
      app.addHook('onResponse', (request, reply, done) => {
        const route = request.routeOptions.url ?? 'unmatched';
        if (route !== '/metrics')
          metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
        done();
      });
  },
  register: (app, deps) => metricsRoutes(app, deps),
});
