import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { registerIdempotencyTasks } from './tasks/purge-expired.task.ts';

/** The purge of stored answers; the preHandler itself is a plugin (app/plugins/idempotency.ts). */
export async function registerIdempotencyModule(app: AppInstance, c: Container) {
  registerIdempotencyTasks(app, c);
}
