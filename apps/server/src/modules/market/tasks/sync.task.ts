import type { Task } from '../../../platform/tasks.ts';
import type { MarketDeps } from '../market.deps.ts';
import { MARKET_SYNC_TASK, MARKET_SYNC_TASK_INTERVAL_MS, syncMarket } from '../sync.usecases.ts';

/**
 * Market sync is the platform's job: customers' market pages no longer reach the hosts unless
 * signed in. One claim row keeps it to one run per interval across replicas.
 */
export const marketSyncTask = (deps: MarketDeps): Task => ({
  name: MARKET_SYNC_TASK,
  intervalMs: MARKET_SYNC_TASK_INTERVAL_MS,
  run: () => syncMarket(deps),
});
