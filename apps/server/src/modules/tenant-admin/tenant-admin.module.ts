import { defineModule } from '../../platform/module.ts';
import { tenantsAdminRoutes } from './tenant-admin.routes.ts';
import type { TenantAdminDeps } from './tenant-admin.usecases.ts';

/**
 * The back office's tenants: their domains, host grants and own prices, and image uploads. Above
 * tenants and market: a change drops both caches.
 */
export const tenantAdminModule = defineModule({
  name: 'tenant-admin',
  createDeps: (core, needs: { changed: () => void }): TenantAdminDeps => ({
    db: core.db,
    now: () => core.clock.now(),
    changed: needs.changed,
  }),
  register: (app, deps) => tenantsAdminRoutes(app, deps),
});
