import { defineModule } from '../../platform/module.ts';
import { noticesRoutes } from './notices.routes.ts';
import type { NoticesDeps } from './notices.usecases.ts';

/** The user's notices: what the platform or the back office did to their instances. */
export const noticesModule = defineModule({
  name: 'notices',
  createDeps: (core): NoticesDeps => ({ db: core.db, now: () => core.clock.now() }),
  register: (app, deps) => noticesRoutes(app, deps),
});
