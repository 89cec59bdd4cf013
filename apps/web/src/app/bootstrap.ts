import type { TenantConfig } from '@gpu/shared';
import { loadTenantConfig } from '../features/tenant/api/get-tenant-config';
import { restoreSession } from '../lib/session';

/**
 * SPEC.md §1 start-up order: the tenant config loads first (the default config when that
 * fails), then the sessions are restored from storage, then the app renders.
 */
export async function bootstrap(render: (tenant: TenantConfig) => void): Promise<void> {
  const tenant = await loadTenantConfig();
  restoreSession();
  render(tenant);
}
