import { envelopeSchema, MARKET_DEFAULT_PAGE_SIZE, MARKET_PAGE_SIZES, marketListSchema } from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../app/plugins/envelope.ts';
import type { AppInstance } from '../../app/server.ts';
import { listMarket } from './market.usecases.ts';

const marketQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce
    .number()
    .int()
    .refine(
      (n) => (MARKET_PAGE_SIZES as readonly number[]).includes(n),
      `每页条数只能是 ${MARKET_PAGE_SIZES.join('、')}`,
    )
    .default(MARKET_DEFAULT_PAGE_SIZE),
});

export async function marketRoutes(app: AppInstance) {
  app.get(
    '/api/gpu/market',
    {
      schema: {
        tags: ['market'],
        summary: 'GPU 市场',
        querystring: marketQuery,
        response: { 200: envelopeSchema(marketListSchema) },
      },
    },
    async (request) => ok(await listMarket(app.deps, request.tenant, request.query)),
  );
}
