import type { Task } from '../../../platform/tasks.ts';
import type { AuthModuleDeps } from '../auth.deps.ts';
import { deleteOldHits } from '../rate-limits.repository.ts';

/** Rate-limit counters older than their window are of no use; any replica may delete them. */
export const rateLimitCleanupTask = (deps: AuthModuleDeps): Task => ({
  name: 'auth.rate-limit-cleanup',
  intervalMs: 10 * 60_000,
  run: () => deleteOldHits(deps.db, deps.now().getTime()),
});
