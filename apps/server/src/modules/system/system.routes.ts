import { envelopeSchema, errorEnvelopeSchema } from '@gpu/shared';
import { z } from 'zod';
import { fail, ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { SystemDeps } from './system.deps.ts';

const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  uptimeS: z.number(),
});

export async function systemRoutes(app: AppInstance, { database }: SystemDeps) {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: '健康检查（含数据库）',
        response: { 200: envelopeSchema(healthSchema), 503: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      try {
        await database.ping();
      } catch (err) {
        request.log.error({ err }, 'health: database ping failed');
        return reply.code(503).send(fail(503, '数据库不可用'));
      }
      return ok({ status: 'ok' as const, database: database.kind, uptimeS: Math.round(process.uptime()) });
    },
  );
}
