import type { AppInstance } from '../../../app/server.ts';
import { purgeExpiredRequests } from '../idempotency.usecases.ts';

export const PURGE_IDEMPOTENCY_TASK = 'idempotency.purge-expired';

/** Stored answers live a day; deleting by age is safe on every replica at once. */
export function registerIdempotencyTasks(app: AppInstance) {
  app.tasks.register({
    name: PURGE_IDEMPOTENCY_TASK,
    intervalMs: 10 * 60_000,
    run: () => purgeExpiredRequests({ db: app.deps.db, now: () => app.deps.clock.now() }),
  });
}
