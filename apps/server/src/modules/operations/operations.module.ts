import { createAggregateCache } from '../../platform/aggregate-cache.ts';
import { defineModule } from '../../platform/module.ts';
import type { InstanceDeps } from '../instances/index.ts';
import { ROLL_UP_INTERVAL_MS, rollUpDays } from './dashboard.usecases.ts';
import type { OperationsDeps } from './operations.deps.ts';
import { operationsRoutes } from './operations.routes.ts';

/** The back office's operations: balance monitoring, user management and the instance monitor. */
export const operationsModule = defineModule({
  name: 'operations',
  createDeps: (core, needs: { instances: InstanceDeps; statsTtlMs: number }): OperationsDeps => ({
    db: core.db,
    now: () => core.clock.now(),
    instances: needs.instances,
    stats: createAggregateCache({ ttlMs: needs.statsTtlMs, now: () => core.clock.now() }),
  }),
  register: async (app, deps) => {
    await operationsRoutes(app, deps);
    app.tasks.register({
      name: 'operations.roll-up-days',
      intervalMs: ROLL_UP_INTERVAL_MS,
      run: () => rollUpDays(deps),
    });
  },
});
