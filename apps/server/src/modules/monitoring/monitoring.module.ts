import { defineModule } from '../../platform/module.ts';
import type { HostDriverRegistry } from '../hosts/index.ts';
import type { MonitoringDeps } from './monitoring.deps.ts';
import { monitoringRoutes } from './monitoring.routes.ts';
import { monitoringTasks } from './tasks/monitoring.task.ts';

/** Monitoring (issue 31): samples of running instances through the host drivers, rollups, charts. */
export const monitoringModule = defineModule({
  name: 'monitoring',
  createDeps: (core, needs: { hostDrivers: HostDriverRegistry }): MonitoringDeps => ({
    db: core.db,
    clock: core.clock,
    hostDrivers: needs.hostDrivers,
    log: core.log,
  }),
  register: async (app, deps) => {
    await monitoringRoutes(app, deps);
    for (const task of monitoringTasks(deps)) app.tasks.register(task);
  },
});
