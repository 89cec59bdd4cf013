import type { Task } from '../../../platform/tasks.ts';
import type { VastaiModuleDeps } from '../vastai.deps.ts';
import { refreshOffers } from '../vastai.usecases.ts';

/** vast.ai's offers, stored for the market every VASTAI_REFRESH_S. */
export const offersTask = (deps: VastaiModuleDeps): Task => ({
  name: 'vastai.offers',
  intervalMs: deps.refreshMs,
  run: () => refreshOffers(deps),
});
