import { defineModule } from '../../platform/module.ts';
import { createEmbedProbe } from './embed-probe.ts';
import { registerTenantResolution } from './tenant.plugin.ts';
import type { TenantsDeps } from './tenants.deps.ts';
import { tenantsRoutes } from './tenants.routes.ts';
import { createTenantService } from './tenants.usecases.ts';

/** Tenants: which one a request is for (by host), and its public configuration. */
export const tenantsModule = defineModule({
  name: 'tenants',
  createDeps: (core, needs: { isProduction: boolean }): TenantsDeps => ({
    service: createTenantService({ db: core.db, clock: core.clock }),
    isProduction: needs.isProduction,
    embedProbe: createEmbedProbe(),
  }),
  hooks: (app, deps) => registerTenantResolution(app, deps.service),
  register: (app, deps) => tenantsRoutes(app, deps),
});
