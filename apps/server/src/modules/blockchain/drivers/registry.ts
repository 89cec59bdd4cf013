import type { Db } from '../../../platform/db/client.ts';
import { ChainProviderError, type ChainStatusDriver } from './chain-driver.ts';
import { createSimulatedChainDriver } from './simulated/simulated-chain.ts';

/**
 * The chain driver CHAIN_PROVIDER chooses, and nothing else: the simulated chain confirms
 * whatever its page is told, i.e. free money, so it runs only where that setting names it
 * (never in production, config.ts). Otherwise, until a chain RPC driver is configured
 * (docs/decisions.md), lookups fail and orders simply stay pending.
 */
export function createChainDriver(
  config: { CHAIN_PROVIDER: 'off' | 'simulated' },
  { db }: { db: Db },
): ChainStatusDriver {
  if (config.CHAIN_PROVIDER === 'simulated') return createSimulatedChainDriver({ db });
  return {
    kind: 'rpc',
    async lookup() {
      throw new ChainProviderError('no chain RPC driver is configured');
    },
  };
}
