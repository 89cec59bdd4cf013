import {
  blockchainBatchStatusSchema,
  blockchainIdParams,
  blockchainListQuerySchema,
  blockchainNetworkSchema,
  blockchainOrderCreateSchema,
  blockchainOrderNoParams,
  blockchainOrderSchema,
  blockchainStatsSchema,
  blockchainStatusSchema,
  blockchainTxParams,
  envelopeSchema,
  pageSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import type { BlockchainDeps } from './blockchain.deps.ts';
import {
  blockchainBatchStatus,
  blockchainOrderStatus,
  blockchainStats,
  createBlockchainOrder,
  findBlockchainOrder,
  listBlockchainOrders,
} from './blockchain.usecases.ts';

/** The blockchain order area (SPEC.md §7 Blockchain), for signed-in users; each sees only their own orders. */
export async function blockchainRoutes(app: AppInstance, deps: BlockchainDeps) {
  const user = { preHandler: app.requireUser };
  const tags = ['blockchain'];
  const orderAnswer = { 200: envelopeSchema(blockchainOrderSchema) };

  app.post(
    '/api/blockchain/orders',
    {
      ...user,
      config: { access: 'billing' },
      schema: { tags, summary: '提交链上支付订单', body: blockchainOrderCreateSchema, response: orderAnswer },
    },
    async (request) =>
      ok(
        await createBlockchainOrder(
          deps,
          { id: signedInUser(request).id, tenantId: request.tenant.id },
          request.body,
        ),
        '订单已提交，等待链上确认',
      ),
  );
  app.get(
    '/api/blockchain/networks',
    {
      ...user,
      schema: {
        tags,
        summary: '收款网络与地址',
        response: { 200: envelopeSchema(z.array(blockchainNetworkSchema)) },
      },
    },
    async () => ok(deps.networks),
  );
  app.get(
    '/api/blockchain/user/orders',
    {
      ...user,
      schema: {
        tags,
        summary: '我的区块链订单',
        querystring: blockchainListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(blockchainOrderSchema)) },
      },
    },
    async (request) => ok(await listBlockchainOrders(deps, signedInUser(request).id, request.query)),
  );
  app.get(
    '/api/blockchain/user/orders/stats',
    {
      ...user,
      schema: { tags, summary: '区块链订单统计', response: { 200: envelopeSchema(blockchainStatsSchema) } },
    },
    async (request) => ok(await blockchainStats(deps, signedInUser(request).id)),
  );
  app.get(
    '/api/blockchain/orders/by-no/:no',
    {
      ...user,
      schema: { tags, summary: '按订单号查询', params: blockchainOrderNoParams, response: orderAnswer },
    },
    async (request) =>
      ok(await findBlockchainOrder(deps, signedInUser(request).id, { by: 'no', no: request.params.no })),
  );
  app.get(
    '/api/blockchain/orders/by-id/:id',
    { ...user, schema: { tags, summary: '按编号查询', params: blockchainIdParams, response: orderAnswer } },
    async (request) =>
      ok(await findBlockchainOrder(deps, signedInUser(request).id, { by: 'id', id: request.params.id })),
  );
  app.get(
    '/api/blockchain/orders/tx/:hash',
    {
      ...user,
      schema: { tags, summary: '按交易哈希查询', params: blockchainTxParams, response: orderAnswer },
    },
    async (request) =>
      ok(await findBlockchainOrder(deps, signedInUser(request).id, { by: 'tx', hash: request.params.hash })),
  );
  app.get(
    '/api/blockchain/orders/:id/status',
    {
      ...user,
      schema: {
        tags,
        summary: '订单状态（待确认时先向链查询）',
        params: blockchainIdParams,
        response: { 200: envelopeSchema(blockchainStatusSchema) },
      },
    },
    async (request) => ok(await blockchainOrderStatus(deps, signedInUser(request).id, request.params.id)),
  );
  app.post(
    '/api/blockchain/orders/status/batch',
    {
      ...user,
      config: { access: 'read' },
      schema: {
        tags,
        summary: '批量查询订单状态',
        body: blockchainBatchStatusSchema,
        response: { 200: envelopeSchema(z.array(blockchainStatusSchema)) },
      },
    },
    async (request) => ok(await blockchainBatchStatus(deps, signedInUser(request).id, request.body.orderNos)),
  );
}
