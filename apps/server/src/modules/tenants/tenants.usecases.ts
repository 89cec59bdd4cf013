import type { Db } from '../../app/db/client.ts';
import { normalizeHost } from './tenants.models.ts';
import { createTenantsRepository, type TenantRecord } from './tenants.repository.ts';

/** Tenant configs change rarely and are read on every request: keep them briefly per process. */
const CACHE_TTL_MS = 30_000;

export type TenantService = ReturnType<typeof createTenantService>;

export function createTenantService({ db, now = () => Date.now() }: { db: Db; now?: () => number }) {
  const repo = createTenantsRepository({ db });
  const cache = new Map<string, { at: number; tenant: TenantRecord }>();

  async function fresh(host: string): Promise<TenantRecord> {
    const byHost = host ? await repo.findByHost(host) : undefined;
    if (byHost && byHost.status === 'ACTIVE') return byHost;
    const fallback = await repo.findDefault();
    if (!fallback) throw new Error('no default tenant: the demo data or an admin must create one');
    return fallback;
  }

  return {
    /** The tenant for a browser host name; unknown or disabled hosts get the default tenant. */
    async resolve(rawHost: string | undefined): Promise<TenantRecord> {
      const host = normalizeHost(rawHost);
      const hit = cache.get(host);
      if (hit && now() - hit.at < CACHE_TTL_MS) return hit.tenant;
      const tenant = await fresh(host);
      cache.set(host, { at: now(), tenant });
      return tenant;
    },
    findByCode: (code: string) => repo.findByCode(code),
    list: () => repo.list(),
    /** Call after any write to tenants or their domains. */
    invalidate: () => cache.clear(),
  };
}
