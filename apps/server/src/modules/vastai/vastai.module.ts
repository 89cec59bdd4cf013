import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { reconcileOverseas } from './reconcile.usecases.ts';
import { vastaiRoutes } from './vastai.routes.ts';
import { refreshOffers } from './vastai.usecases.ts';

/** Overseas GPUs through vast.ai: routes, the offers refresh and the reconcile with vast.ai. */
export async function registerVastai(app: AppInstance, c: Container) {
  await vastaiRoutes(app, c);
  if (!c.vastai.vast) return;
  app.tasks.register({
    name: 'vastai.offers',
    intervalMs: c.config.VASTAI_REFRESH_S * 1000,
    run: () => refreshOffers(c.vastai),
  });
  app.tasks.register({
    name: 'vastai.reconcile',
    intervalMs: 60_000,
    run: () => reconcileOverseas(c.vastai),
  });
}
