import {
  envelopeSchema,
  marketListSchema,
  marketQuerySchema,
  marketSyncAnswerSchema,
  marketSyncResultSchema,
} from '@gpu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor, perCustomerLimit } from '../auth/index.ts';
import type { MarketDeps } from './market.deps.ts';
import type { MarketAnswer } from './market.read-model.ts';
import { adminSyncMarket, customerSyncMarket } from './sync.usecases.ts';

const syncMessage = (synced: boolean) => (synced ? '同步完成' : '刚刚同步过，已返回最近一次结果');

const rawQueryOf = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};
const acceptEncodingOf = (request: FastifyRequest) => request.headers['accept-encoding'];

function sendAnswer(reply: FastifyReply, answer: MarketAnswer) {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (answer.encoding) reply.header('content-encoding', answer.encoding);
  return reply.send(answer.body as never);
}

export async function marketRoutes(app: AppInstance, deps: MarketDeps) {
  app.get(
    '/api/gpu/market',
    {
      schema: {
        tags: ['market'],
        summary: 'GPU 市场（筛选、分页、折扣价）',
        querystring: marketQuerySchema,
        response: { 200: envelopeSchema(marketListSchema) },
      },
      // A URL answered before (and still current) is answered at once, before its query is
      // parsed and validated again: the same bytes as the handler below would send (issue 15).
      onRequest: (request, reply, done) => {
        const hit = deps.market.cached(request.tenant, rawQueryOf(request.url), acceptEncodingOf(request));
        if (!hit) return done();
        sendAnswer(reply, hit);
      },
    },
    // The read model's answer is already JSON bytes (compressed when the client accepts it),
    // checked against this schema when built; a Buffer is sent as it is (the schema documents it).
    async (request, reply) =>
      sendAnswer(
        reply,
        await deps.market.listJson(request.tenant, request.query, {
          acceptEncoding: acceptEncodingOf(request),
          rawQuery: rawQueryOf(request.url),
        }),
      ),
  );

  // SPEC.md §7: the market page's background sync. Signed-in customers only, a budget per
  // customer, and an answer that says nothing about the hosts (issue 26).
  app.post(
    '/api/gpu/sync',
    {
      preHandler: app.requireUser,
      config: { access: 'read', ...perCustomerLimit(10) },
      schema: {
        tags: ['market'],
        summary: '从各主机驱动同步 GPU 库存（30 秒内最多一次）',
        response: { 200: envelopeSchema(marketSyncAnswerSchema) },
      },
    },
    async () => {
      const result = await customerSyncMarket(deps);
      return ok(result, syncMessage(result.synced));
    },
  );

  app.post(
    '/api/admin/market/sync',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['market'],
        summary: '同步各主机 GPU 库存（含不可达主机及驱动错误）',
        response: { 200: envelopeSchema(marketSyncResultSchema) },
      },
    },
    async (request) => {
      const result = await adminSyncMarket(deps, adminActor(request));
      return ok(result, syncMessage(result.synced));
    },
  );
}
