import type { Task } from '../../../platform/tasks.ts';
import type { IdempotencyDeps } from '../idempotency.deps.ts';
import { purgeExpiredRequests } from '../idempotency.usecases.ts';

export const PURGE_IDEMPOTENCY_TASK = 'idempotency.purge-expired';

/** Stored answers live a day; deleting by age is safe on every replica at once. */
export const purgeExpiredTask = (deps: IdempotencyDeps): Task => ({
  name: PURGE_IDEMPOTENCY_TASK,
  intervalMs: 10 * 60_000,
  run: () => purgeExpiredRequests(deps),
});
