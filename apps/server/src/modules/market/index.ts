import type { AppInstance, Container } from '../../app/types.ts';
import { imagesRoutes } from './images.routes.ts';
import { marketRoutes } from './market.routes.ts';

/** The market (listings, sync) and the image catalogue. */
export async function registerMarket(app: AppInstance, c: Container) {
  await marketRoutes(app, c);
  await imagesRoutes(app, c);
}
