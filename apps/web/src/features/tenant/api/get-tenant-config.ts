import type { TenantConfig } from '@gpu/shared/tenant';
import { DEFAULT_TENANT_CONFIG } from '@gpu/shared/tenant-defaults';
import { api } from '../../../lib/api-client';
import { getDevTenantCode } from '../dev-tenant';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The server answers with the shared tenantConfigSchema (it validates its responses); here the
 * browser only rejects what is not a tenant config at all and fills missing parts from the
 * defaults. Not using zod keeps it out of the first page's bundle.
 */
export function toTenantConfig(data: unknown): TenantConfig | null {
  if (!isRecord(data) || typeof data.tenantName !== 'string' || !isRecord(data.theme)) return null;
  const section = <K extends 'theme' | 'homepage' | 'contact' | 'footer'>(key: K) => ({
    ...DEFAULT_TENANT_CONFIG[key],
    ...(isRecord(data[key]) ? data[key] : {}),
  });
  return {
    ...DEFAULT_TENANT_CONFIG,
    ...data,
    theme: section('theme'),
    homepage: section('homepage'),
    contact: section('contact'),
    footer: section('footer'),
  } as TenantConfig;
}

/** GET /api/tenant/config; in development the switcher may name a tenant (?tenant=code). */
export async function fetchTenantConfig(tenantCode?: string | null): Promise<TenantConfig> {
  const data = await api.get<unknown>('/tenant/config', { query: { tenant: tenantCode || undefined } });
  const config = toTenantConfig(data);
  if (!config) throw new Error('not a tenant config');
  return config;
}

/**
 * SPEC.md §1: the tenant of this host name, or the default config when it cannot be loaded.
 * In development the switcher's stored tenant comes first (it may have been removed since).
 */
export async function loadTenantConfig(): Promise<TenantConfig> {
  const devCode = import.meta.env.DEV ? getDevTenantCode() : null;
  for (const code of devCode ? [devCode, null] : [null]) {
    try {
      return await fetchTenantConfig(code);
    } catch {
      // try the next source
    }
  }
  return DEFAULT_TENANT_CONFIG;
}
