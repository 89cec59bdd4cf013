import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { BlockchainDeps } from './blockchain.deps.ts';
import { blockchainRoutes } from './blockchain.routes.ts';
import { registerBlockchainTasks } from './blockchain.tasks.ts';
import type { ChainStatusDriver } from './drivers/chain-driver.ts';
import { createChainDriver } from './drivers/registry.ts';
import { simulatedChainRoutes } from './drivers/simulated/simulated.routes.ts';
import { simulatedChainPath } from './drivers/simulated/simulated-chain.ts';

/** The deps of this feature; kept here (not in the container) as nothing else uses the chain. */
export function createBlockchainDeps(c: Container, chain?: ChainStatusDriver): BlockchainDeps {
  const driver = chain ?? createChainDriver(c.config, { db: c.db });
  return {
    db: c.db,
    now: () => c.clock.now(),
    chain: driver,
    confirmUrl:
      driver.kind === 'simulated' ? (no) => `${c.config.publicBaseUrl}${simulatedChainPath(no)}` : null,
    log: c.log,
  };
}

/** Blockchain orders: routes, the simulated chain's page, and the poll of pending orders. */
export async function registerBlockchain(app: AppInstance, c: Container) {
  const deps = createBlockchainDeps(c);
  await blockchainRoutes(app, deps);
  if (deps.chain.kind === 'simulated') await simulatedChainRoutes(app, deps);
  registerBlockchainTasks(app, deps);
}
