import type { AppInstance } from '../../app/server.ts';
import { deleteOldHits } from './rate-limit-store.ts';

export function registerAuthTasks(app: AppInstance) {
  app.tasks.register({
    name: 'auth.rate-limit-cleanup',
    intervalMs: 10 * 60_000,
    run: () => deleteOldHits(app.deps.db, app.deps.clock.now().getTime()),
  });
}
