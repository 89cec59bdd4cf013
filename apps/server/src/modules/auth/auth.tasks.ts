import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { deleteOldHits } from './rate-limits.repository.ts';

export function registerAuthTasks(app: AppInstance, c: Container) {
  app.tasks.register({
    name: 'auth.rate-limit-cleanup',
    intervalMs: 10 * 60_000,
    run: () => deleteOldHits(c.db, c.clock.now().getTime()),
  });
}
