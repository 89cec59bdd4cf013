import { SAMPLE_INTERVAL_MS } from '@gpu/shared/monitoring';
import type { Task } from '../../../platform/tasks.ts';
import type { MonitoringDeps } from '../monitoring.deps.ts';
import { runRollup } from '../rollup.usecases.ts';
import { runSampling } from '../sampling.usecases.ts';

/** Monitoring's scheduled jobs; each run is safe on every replica at once. */
export const monitoringTasks = (deps: MonitoringDeps): Task[] => [
  // Slot-stamped rows and ON CONFLICT DO NOTHING: two replicas sampling one slot write it once.
  { name: 'monitoring.sample', intervalMs: SAMPLE_INTERVAL_MS, run: () => runSampling(deps) },
  // Under an advisory lock: rollups and retention run on one replica at a time.
  { name: 'monitoring.rollup', intervalMs: 60_000, run: () => runRollup(deps) },
];
