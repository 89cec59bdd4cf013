import { defineModule } from '../../platform/module.ts';
import type { SystemDeps } from './system.deps.ts';
import { systemRoutes } from './system.routes.ts';
import { vacuumTask } from './tasks/vacuum.task.ts';

/** Health and first-start status; the embedded database's vacuum. */
export const systemModule = defineModule({
  name: 'system',
  createDeps: (core): SystemDeps => ({ database: core.database }),
  register: async (app, deps) => {
    await systemRoutes(app, deps);
    const vacuum = vacuumTask(deps);
    if (vacuum) app.tasks.register(vacuum);
  },
});
