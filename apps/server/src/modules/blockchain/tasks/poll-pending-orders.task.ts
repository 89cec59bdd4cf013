import type { Task } from '../../../platform/tasks.ts';
import type { BlockchainDeps } from '../blockchain.deps.ts';
import { pollPendingBlockchainOrders } from '../blockchain.usecases.ts';

export const POLL_BLOCKCHAIN_ORDERS_TASK = 'blockchain.poll-pending-orders';

export const pollPendingOrdersTask = (deps: BlockchainDeps): Task => ({
  name: POLL_BLOCKCHAIN_ORDERS_TASK,
  intervalMs: 15_000,
  run: () => pollPendingBlockchainOrders(deps),
});
