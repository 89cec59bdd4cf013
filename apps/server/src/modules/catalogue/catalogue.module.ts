import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { catalogueRoutes } from './catalogue.routes.ts';

/** The admin catalogue: regions, GPU types, images and GPU SKUs. */
export async function registerCatalogue(app: AppInstance, c: Container) {
  await catalogueRoutes(app, c);
}
