import type { AppInstance, Container } from '../../app/types.ts';
import { tenantsRoutes } from './tenants.routes.ts';

export async function registerTenants(app: AppInstance, c: Container) {
  await tenantsRoutes(app, c);
}
