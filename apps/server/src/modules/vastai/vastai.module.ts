import { defineModule } from '../../platform/module.ts';
import { createVastClient, type VastClient } from '../hosts/index.ts';
import type { InstanceDeps } from '../instances/index.ts';
import { offersTask } from './tasks/offers.task.ts';
import { reconcileTask } from './tasks/reconcile.task.ts';
import type { VastaiModuleDeps } from './vastai.deps.ts';
import type { OverseasPricing } from './vastai.models.ts';
import { vastaiRoutes } from './vastai.routes.ts';

export interface VastaiSettings {
  VASTAI_API_KEY?: string;
  VASTAI_API_URL: string;
  VASTAI_REFRESH_S: number;
}

/** Overseas GPUs through vast.ai: routes, the offers refresh and the reconcile with vast.ai. */
export const vastaiModule = defineModule({
  name: 'vastai',
  createDeps: (
    _core,
    needs: { settings: VastaiSettings; instances: InstanceDeps; pricing: OverseasPricing; vast?: VastClient },
  ): VastaiModuleDeps => {
    const { VASTAI_API_KEY: apiKey, VASTAI_API_URL: apiUrl } = needs.settings;
    return {
      ...needs.instances,
      vast: apiKey ? (needs.vast ?? createVastClient({ apiKey, apiUrl })) : null,
      pricing: needs.pricing,
      refreshMs: needs.settings.VASTAI_REFRESH_S * 1000,
    };
  },
  register: async (app, deps) => {
    await vastaiRoutes(app, deps);
    // Without a key there is nothing to refresh or reconcile.
    if (!deps.vast) return;
    app.tasks.register(offersTask(deps));
    app.tasks.register(reconcileTask(deps));
  },
});
