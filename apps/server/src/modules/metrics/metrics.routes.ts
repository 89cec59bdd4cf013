import { timingSafeEqual } from 'node:crypto';
import { fail } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { MetricsDeps } from './metrics.deps.ts';

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export async function metricsRoutes(app: AppInstance, { metrics, token }: MetricsDeps) {
  // Outside the OpenAPI document: Prometheus text, for the scraper, not for API clients.
  // Without METRICS_TOKEN there is nothing to scrape: 404 (registered anyway, so the SPA's
  // fallback page does not answer 200 in its place).
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token) return reply.code(404).send(fail(404, '页面不存在'));
    if (!sameSecret(request.headers.authorization ?? '', `Bearer ${token}`)) {
      return reply.code(401).send(fail(401, '需要 METRICS_TOKEN'));
    }
    reply.header('content-type', metrics.contentType);
    return metrics.render();
  });
}
