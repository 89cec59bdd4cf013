import { z } from 'zod';
import type { AppInstance } from '../../../../platform/http/types.ts';
import type { BlockchainDeps } from '../../blockchain.deps.ts';
import { createBlockchainRepository } from '../../blockchain.repository.ts';
import { refreshBlockchainOrder } from '../../blockchain.usecases.ts';
import { renderSimulatedChainPage } from './simulated-page.ts';

const params = z.object({ orderNo: z.string().max(64) });
const body = z.object({ result: z.enum(['CONFIRMED', 'FAILED']).default('CONFIRMED') }).optional();

/** The page that plays the chain (only with the simulated driver). No login: it is "the chain". */
export async function simulatedChainRoutes(app: AppInstance, deps: BlockchainDeps) {
  const repo = createBlockchainRepository(deps);
  const page = (
    reply: { code(n: number): { type(t: string): { send(s: string): unknown } } },
    order: Parameters<typeof renderSimulatedChainPage>[0],
  ) =>
    reply
      .code(order ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(renderSimulatedChainPage(order));

  app.get(
    '/api/blockchain/simulated/:orderNo',
    { schema: { tags: ['blockchain'], summary: '模拟区块链确认页面（HTML）', params, hide: true } },
    async (request, reply) => page(reply, (await repo.anyByNo(request.params.orderNo)) ?? null),
  );
  app.post(
    '/api/blockchain/simulated/:orderNo',
    { schema: { tags: ['blockchain'], summary: '模拟区块链：确认或使交易失败', params, body, hide: true } },
    async (request, reply) => {
      const order = await repo.anyByNo(request.params.orderNo);
      if (!order) return page(reply, null);
      await repo.putSimulatedTx({
        chain: order.chain,
        txHash: order.txHash,
        status: request.body?.result ?? 'CONFIRMED',
        amountMicro: order.amountMicro,
        currency: order.currency,
      });
      // The chain has decided; apply it now rather than at the next poll, so the page shows it.
      await refreshBlockchainOrder(deps, order);
      return page(reply, (await repo.anyByNo(order.orderNo)) ?? null);
    },
  );
}
