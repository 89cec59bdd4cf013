import { defineModule } from '../../platform/module.ts';
import type { InstanceDeps } from '../instances/index.ts';
import { noticesRoutes } from './notices.routes.ts';
import type { OperationsDeps } from './operations.deps.ts';
import { operationsRoutes } from './operations.routes.ts';

/** The back office's operations: balance monitoring, user management, instance monitor, user notices. */
export const operationsModule = defineModule({
  name: 'operations',
  createDeps: (core, needs: { instances: InstanceDeps }): OperationsDeps => ({
    db: core.db,
    now: () => core.clock.now(),
    instances: needs.instances,
  }),
  register: async (app, deps) => {
    await operationsRoutes(app, deps);
    await noticesRoutes(app, deps);
  },
});
