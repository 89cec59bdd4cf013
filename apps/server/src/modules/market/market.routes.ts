import { envelopeSchema, marketListSchema, marketQuerySchema } from '@gpu/shared';
import { ok } from '../../app/plugins/envelope.ts';
import type { AppInstance } from '../../app/server.ts';

export async function marketRoutes(app: AppInstance) {
  app.get(
    '/api/gpu/market',
    {
      schema: {
        tags: ['market'],
        summary: 'GPU 市场（筛选、分页、折扣价）',
        querystring: marketQuerySchema,
        response: { 200: envelopeSchema(marketListSchema) },
      },
    },
    async (request) => ok(await app.deps.market.list(request.tenant, request.query)),
  );
}
