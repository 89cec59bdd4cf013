import type { TenantConfig } from '@gpu/shared/tenant';
import { loadTenantConfig } from '../features/tenant';
import { restoreSession } from '../lib/session';
import { resumeExpiredSession } from '../lib/session-keepalive';

/**
 * SPEC.md §1 start-up order: the tenant config loads first (the default config when that
 * fails), then the sessions are restored from storage (an expired access token is renewed through the
 * refresh cookie first), then the app renders.
 */
export async function bootstrap(render: (tenant: TenantConfig) => void): Promise<void> {
  const tenant = await loadTenantConfig();
  restoreSession();
  await resumeExpiredSession();
  render(tenant);
}
