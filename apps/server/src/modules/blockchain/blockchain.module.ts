import type { Core } from '../../platform/module.ts';
import { defineModule } from '../../platform/module.ts';
import type { BlockchainDeps } from './blockchain.deps.ts';
import { type ReceivingSettings, receivingNetworks } from './blockchain.models.ts';
import { blockchainRoutes } from './blockchain.routes.ts';
import type { ChainStatusDriver } from './drivers/chain-driver.ts';
import { createChainDriver } from './drivers/registry.ts';
import { simulatedChainRoutes } from './drivers/simulated/simulated.routes.ts';
import { simulatedChainPath } from './drivers/simulated/simulated-chain.ts';
import { pollPendingOrdersTask } from './tasks/poll-pending-orders.task.ts';

export interface BlockchainSettings extends ReceivingSettings {
  CHAIN_PROVIDER: 'off' | 'simulated';
  publicBaseUrl: string;
}

/** The deps of this feature; `chain` replaces the configured driver (tests). */
export function createBlockchainDeps(
  core: Core,
  settings: BlockchainSettings,
  chain?: ChainStatusDriver,
): BlockchainDeps {
  const driver = chain ?? createChainDriver(settings, { db: core.db });
  return {
    db: core.db,
    now: () => core.clock.now(),
    chain: driver,
    confirmUrl:
      driver.kind === 'simulated' ? (no) => `${settings.publicBaseUrl}${simulatedChainPath(no)}` : null,
    log: core.log,
    networks: receivingNetworks(settings),
  };
}

/** Blockchain orders: routes, the simulated chain's page, and the poll of pending orders. */
export const blockchainModule = defineModule({
  name: 'blockchain',
  createDeps: (core, needs: { settings: BlockchainSettings }) => createBlockchainDeps(core, needs.settings),
  register: async (app, deps) => {
    await blockchainRoutes(app, deps);
    if (deps.chain.kind === 'simulated') await simulatedChainRoutes(app, deps);
    app.tasks.register(pollPendingOrdersTask(deps));
  },
});
