import type { Task } from '../../../platform/tasks.ts';
import { reconcileOverseas } from '../reconcile.usecases.ts';
import type { VastaiDeps } from '../vastai.deps.ts';

/** Overseas instances against what vast.ai says of their rentals, every minute. */
export const reconcileTask = (deps: VastaiDeps): Task => ({
  name: 'vastai.reconcile',
  intervalMs: 60_000,
  run: () => reconcileOverseas(deps),
});
