import type { TenantConfig } from '@gpu/shared';
import type { TenantRecord } from './tenants.repository.ts';

/** Lower-case host name without port, from a Host or X-Tenant-Host value. */
export function normalizeHost(value: string | undefined): string {
  if (!value) return '';
  let host = value.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 ? host.slice(0, end + 1) : host;
  }
  const colon = host.indexOf(':');
  if (colon >= 0 && host.indexOf(':', colon + 1) < 0) host = host.slice(0, colon);
  return host;
}

/** The tenant config of SPEC.md §3 as the web reads it. */
export function toTenantConfig(t: TenantRecord): TenantConfig {
  return {
    tenantId: t.id,
    tenantCode: t.code,
    tenantName: t.name,
    domain: t.domain,
    ...t.config,
  };
}
