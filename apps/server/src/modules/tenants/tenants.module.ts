import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { tenantsRoutes } from './tenants.routes.ts';
import { tenantsAdminRoutes } from './tenants-admin.routes.ts';

export async function registerTenants(app: AppInstance, c: Container) {
  await tenantsRoutes(app, c);
  await tenantsAdminRoutes(app, c);
}
