import { defineModule } from '../../platform/module.ts';
import type { InstanceDeps } from '../instances/index.ts';
import type { GuardsDeps } from './guards.deps.ts';
import { guardsRoutes } from './guards.routes.ts';
import { runGuardsCheck } from './tasks/check.task.ts';

/** Idle auto-shutdown, scheduled shutdown and spending caps (issue 31), above instances. */
export const guardsModule = defineModule({
  name: 'guards',
  createDeps: (core, needs: { instances: InstanceDeps }): GuardsDeps => ({
    db: core.db,
    clock: core.clock,
    log: core.log,
    instances: needs.instances,
  }),
  register: async (app, deps) => {
    await guardsRoutes(app, deps);
    app.tasks.register({ name: 'guards.check', intervalMs: 60_000, run: () => runGuardsCheck(deps) });
  },
});
