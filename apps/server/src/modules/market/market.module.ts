import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { imagesRoutes } from './images.routes.ts';
import { marketRoutes } from './market.routes.ts';
import { MARKET_SYNC_TASK, MARKET_SYNC_TASK_INTERVAL_MS, syncMarket } from './sync.usecases.ts';

/** The market (listings, sync and its task) and the image catalogue. */
export async function registerMarket(app: AppInstance, c: Container) {
  // Other replicas' changes reach this one's read model through PostgreSQL LISTEN.
  await c.services.market.start();
  app.addHook('onClose', () => c.services.market.stop());
  await marketRoutes(app, c);
  await imagesRoutes(app, c);
  // Market sync is the platform's job: customers' market pages no longer reach the hosts
  // unless signed in. One claim row keeps it to one run per interval across replicas.
  app.tasks.register({
    name: MARKET_SYNC_TASK,
    intervalMs: MARKET_SYNC_TASK_INTERVAL_MS,
    run: () => syncMarket(c.hosts),
  });
}
