import type { AppInstance } from '../../platform/http/types.ts';
import type { BlockchainDeps } from './blockchain.deps.ts';
import { pollPendingBlockchainOrders } from './blockchain.usecases.ts';

export const POLL_BLOCKCHAIN_ORDERS_TASK = 'blockchain.poll-pending-orders';

export function registerBlockchainTasks(app: AppInstance, deps: BlockchainDeps) {
  app.tasks.register({
    name: POLL_BLOCKCHAIN_ORDERS_TASK,
    intervalMs: 15_000,
    run: () => pollPendingBlockchainOrders(deps),
  });
}
