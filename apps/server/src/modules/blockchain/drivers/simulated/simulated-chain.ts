import type { Db } from '../../../../platform/db/client.ts';
import { createBlockchainRepository } from '../../blockchain.repository.ts';
import type { ChainStatusDriver, ChainTxState } from '../chain-driver.ts';

/** The URL path of an order's simulated confirm page; its GET shows the order, its POST decides. */
export const simulatedChainPath = (orderNo: string) =>
  `/api/blockchain/simulated/${encodeURIComponent(orderNo)}`;

/**
 * The offline default: a local page plays the chain. Its decisions land in `simulated_chain_txs`,
 * and this driver reads them back as a node would answer, so confirming goes through the same
 * poll and status path as with a real chain.
 */
export function createSimulatedChainDriver({ db }: { db: Db }): ChainStatusDriver {
  const repo = createBlockchainRepository({ db });
  return {
    kind: 'simulated',
    async lookup(q): Promise<ChainTxState> {
      const tx = await repo.simulatedTx(q.chain, q.txHash);
      if (!tx) return { status: 'NOT_FOUND' };
      if (tx.status === 'FAILED') return { status: 'FAILED', reason: '交易失败（模拟）' };
      if (tx.currency !== q.currency) return { status: 'FAILED', reason: '币种与订单不符' };
      return { status: 'CONFIRMED', amountMicro: tx.amountMicro, currency: q.currency, confirmations: 20 };
    },
  };
}
