import type { AppInstance, Container } from '../../app/types.ts';
import { systemRoutes } from './system.routes.ts';

/** Health and first-start status. */
export async function registerSystem(app: AppInstance, c: Container) {
  await systemRoutes(app, c);
}
