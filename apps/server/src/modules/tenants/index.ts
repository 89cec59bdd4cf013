/**
 * The public face of tenants: what other modules may import (besides its tables files). The module's
 * definition for the app is tenants.module.ts.
 */

export { tenantErrors } from './tenants.errors.ts';
export { createTenantsRepository, type TenantRecord } from './tenants.repository.ts';
