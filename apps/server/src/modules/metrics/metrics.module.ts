import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { metricsRoutes } from './metrics.routes.ts';
import { createMetrics } from './metrics.usecases.ts';

/**
 * Prometheus metrics at GET /metrics. Registered first, so its onResponse hook sees every
 * route; the route label is the pattern (`/api/instances/:id`), never the raw URL, so the
 * number of series stays bounded.
 */
export async function registerMetrics(app: AppInstance, c: Container) {
  const metrics = createMetrics({ db: c.db, tasks: app.tasks });
  // A callback hook, not async: no promise per request for synchronous work (issue 15).
  // Without METRICS_TOKEN nobody can scrape (404), so nothing is counted either.
  if (c.config.METRICS_TOKEN)
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route !== '/metrics')
        metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  await metricsRoutes(app, c, metrics);
}
