import { defineModule } from '../../platform/module.ts';
import type { IdempotencyDeps } from './idempotency.deps.ts';
import { registerIdempotency } from './idempotency.plugin.ts';
import { purgeExpiredTask } from './tasks/purge-expired.task.ts';

/** `Idempotency-Key` for the routes that spend: the preHandler, and the purge of stored answers. */
export const idempotencyModule = defineModule({
  name: 'idempotency',
  createDeps: (core): IdempotencyDeps => ({ db: core.db, now: () => core.clock.now(), box: core.box }),
  hooks: (app, deps) => registerIdempotency(app, deps),
  register: (app, deps) => app.tasks.register(purgeExpiredTask(deps)),
});
