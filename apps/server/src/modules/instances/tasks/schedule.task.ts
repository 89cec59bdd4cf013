import type { Task } from '../../../platform/tasks.ts';
import { runImageDeletes } from '../images/delete.usecases.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { JOB_SWEEP_MS, runJobSweep } from '../jobs/jobs.usecases.ts';
import { runExpiry, runMetering, runRetention } from './billing-tasks.ts';
import { runPackageNotices } from './lifecycle-notices.ts';
import { runReconcile } from './reconcile.ts';

/** The instances' scheduled jobs (DESIGN §5–6); each run is safe on every replica at once. */
export const instanceTasks = (deps: InstanceDeps): Task[] => [
  { name: 'instances.metering', intervalMs: 60_000, run: () => runMetering(deps) },
  { name: 'instances.expiry', intervalMs: 60_000, run: () => runExpiry(deps) },
  { name: 'instances.retention', intervalMs: 10 * 60_000, run: () => runRetention(deps) },
  // Packages near or past their end are told (3 days, 1 day, at the end); dedupe keys keep it once.
  { name: 'instances.package-notices', intervalMs: 10 * 60_000, run: () => runPackageNotices(deps) },
  // Creates and power actions whose in-process kick was lost (crash, restart); claims keep replicas apart.
  { name: 'instances.provision', intervalMs: JOB_SWEEP_MS, run: () => runJobSweep(deps) },
  { name: 'instances.reconcile', intervalMs: 60_000, run: () => runReconcile(deps) },
  // Saved images the user deleted: removed from hosts and registry (a lease keeps replicas apart).
  { name: 'instances.image-deletes', intervalMs: JOB_SWEEP_MS, run: () => runImageDeletes(deps) },
];
