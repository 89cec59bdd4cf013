import type { Container } from '../../../app/types.ts';
import type { AppInstance } from '../../../platform/http/types.ts';
import { purgeExpiredRequests } from '../idempotency.usecases.ts';

export const PURGE_IDEMPOTENCY_TASK = 'idempotency.purge-expired';

/** Stored answers live a day; deleting by age is safe on every replica at once. */
export function registerIdempotencyTasks(app: AppInstance, c: Container) {
  app.tasks.register({
    name: PURGE_IDEMPOTENCY_TASK,
    intervalMs: 10 * 60_000,
    run: () => purgeExpiredRequests(c.basic),
  });
}
