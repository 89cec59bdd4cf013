import { tallyTask } from '../../platform/db/tallies.ts';
import { defineModule } from '../../platform/module.ts';
import type { DiscountService } from '../discounts/index.ts';
import type { HostDriverRegistry, HostsDeps } from '../hosts/index.ts';
import type { MarketCatalog } from '../market/index.ts';
import { createImageDeletes } from './images/delete.usecases.ts';
import type { InstancesModuleDeps } from './instances.deps.ts';
import { instancesRoutes } from './instances.routes.ts';
import { INSTANCES_TALLY } from './instances-list.repository.ts';
import { createInstanceJobs } from './jobs/jobs.usecases.ts';
import { instanceTasks } from './tasks/schedule.task.ts';

export interface InstancesSettings {
  INSTANCE_RETENTION_DAYS: number;
  INSTANCE_PROVISION_LEASE_S: number;
  IMAGE_REGISTRY?: string;
}

/** Instances (routes incl. the Docker-path ones), their provisioning jobs and scheduled tasks. */
export const instancesModule = defineModule({
  name: 'instances',
  createDeps: (
    core,
    needs: {
      settings: InstancesSettings;
      hostDrivers: HostDriverRegistry;
      market: Pick<MarketCatalog, 'invalidate'>;
      discounts: Pick<DiscountService, 'rulesFor'>;
      hosts: HostsDeps;
    },
  ): InstancesModuleDeps => {
    // The jobs and the deps refer to each other: a job runs with these deps, a create or power
    // action kicks one.
    const deps: InstancesModuleDeps = {
      db: core.db,
      clock: core.clock,
      hostDrivers: needs.hostDrivers,
      market: needs.market,
      discounts: needs.discounts,
      box: core.box,
      retentionDays: needs.settings.INSTANCE_RETENTION_DAYS,
      provisionLeaseMs: needs.settings.INSTANCE_PROVISION_LEASE_S * 1000,
      imageRegistry: needs.settings.IMAGE_REGISTRY ?? null,
      jobs: { kick: (id) => jobs.kick(id), drain: () => jobs.drain() },
      imageDeletes: createImageDeletes(
        () => deps,
        (err) => core.log.error({ err }, 'user image deletes failed; the sweep retries them'),
      ),
      log: core.log,
      hosts: needs.hosts,
      requests: core.requests,
    };
    const jobs = createInstanceJobs(
      () => deps,
      (err, instanceId) => core.log.error({ err, instanceId }, 'instance job failed; the sweep retries it'),
      { gate: core.requests },
    );
    return deps;
  },
  register: async (app, deps) => {
    await instancesRoutes(app, deps);
    for (const task of instanceTasks(deps)) app.tasks.register(task);
    app.tasks.register(tallyTask(deps.db, INSTANCES_TALLY));
    // Provisioning jobs in flight finish before the database closes.
    app.addHook('onClose', async () => {
      await deps.jobs.drain();
      await deps.imageDeletes.drain();
    });
  },
});
