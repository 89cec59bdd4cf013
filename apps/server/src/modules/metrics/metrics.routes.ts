import { timingSafeEqual } from 'node:crypto';
import { fail } from '../../app/plugins/envelope.ts';
import type { AppInstance, Container } from '../../app/types.ts';
import type { AppMetrics } from './metrics.usecases.ts';

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export async function metricsRoutes(app: AppInstance, c: Container, metrics: AppMetrics) {
  // Outside the OpenAPI document: Prometheus text, for the scraper, not for API clients.
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const token = c.config.METRICS_TOKEN;
    if (token && !sameSecret(request.headers.authorization ?? '', `Bearer ${token}`)) {
      return reply.code(401).send(fail(401, '需要 METRICS_TOKEN'));
    }
    reply.header('content-type', metrics.contentType);
    return metrics.render();
  });
}
