import type { EmbedProbe } from './embed-probe.ts';
import type { TenantService } from './tenants.usecases.ts';

export interface TenantsDeps {
  service: TenantService;
  /** Outside production the tenant switcher may name a tenant, and the list of them is served. */
  isProduction: boolean;
  /** Whether the tenant's AI navigation page can show in our frame. */
  embedProbe: EmbedProbe;
}
