import type { AppInstance, Container } from '../../app/types.ts';
import { imagesRoutes } from './images.routes.ts';
import { marketRoutes } from './market.routes.ts';

/** The market (listings, sync) and the image catalogue. */
export async function registerMarket(app: AppInstance, c: Container) {
  // Other replicas' changes reach this one's read model through PostgreSQL LISTEN.
  await c.services.market.start();
  app.addHook('onClose', () => c.services.market.stop());
  await marketRoutes(app, c);
  await imagesRoutes(app, c);
}
