import { type Clock, systemClock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { deepFreeze } from '../../platform/freeze.ts';
import { normalizeHost } from './tenants.models.ts';
import { createTenantsRepository, type TenantRecord } from './tenants.repository.ts';

/**
 * Tenants and their domains are a small table read on every request: each process keeps the whole
 * of it for 30 s (or until `invalidate`). A request's host is only looked up in that snapshot, so
 * an unknown host (the header is client-controlled) never grows anything or reaches the database.
 * Every admin write bumps a version row in the same transaction; each replica reads that one row
 * at most once per VERSION_CHECK_MS and reloads when it moved, so an edit is live on every
 * replica within about a second without LISTEN connections.
 */
const CACHE_TTL_MS = 30_000;
export const VERSION_CHECK_MS = 1_000;

interface Snapshot {
  at: number;
  version: number;
  byHost: Map<string, TenantRecord>;
  fallback: TenantRecord;
}

export type TenantService = ReturnType<typeof createTenantService>;

export function createTenantService({ db, clock = systemClock }: { db: Db; clock?: Clock }) {
  const now = () => clock.now().getTime();
  const repo = createTenantsRepository({ db });
  let snapshot: Snapshot | null = null;
  let loading: Promise<Snapshot> | null = null;
  let generation = 0;

  let checkedAt = 0;
  const pick = (s: Snapshot, rawHost: string | undefined) =>
    s.byHost.get(normalizeHost(rawHost)) ?? s.fallback;

  async function load(): Promise<Snapshot> {
    // The version first: a write landing after it bumps past it, and the next check reloads.
    const version = await repo.version();
    const [all, domains] = await Promise.all([repo.list(), repo.listDomains()]);
    // Every request of the next 30 s gets these records: none may change them.
    deepFreeze(all);
    const byId = new Map(all.map((t) => [t.id, t]));
    const byHost = new Map<string, TenantRecord>();
    for (const d of domains) {
      const tenant = byId.get(d.tenantId);
      // A disabled tenant's host names fall back to the default tenant.
      if (tenant && tenant.status === 'ACTIVE') byHost.set(d.host, tenant);
    }
    const fallback = all.find((t) => t.isDefault);
    if (!fallback) throw new Error('no default tenant: the demo data or an admin must create one');
    checkedAt = now();
    return { at: now(), version, byHost, fallback };
  }

  /** Drops the snapshot when another replica (or this one) bumped the version since it loaded. */
  async function checkVersion(s: Snapshot) {
    checkedAt = now();
    const version = await repo.version();
    if (version !== s.version && snapshot === s) invalidate();
  }

  function invalidate() {
    generation++;
    snapshot = null;
    loading = null;
  }

  /** The snapshot when it can be used without asking the database, else null. */
  function settled(): Snapshot | null {
    const t = now();
    return snapshot && t - snapshot.at < CACHE_TTL_MS && t - checkedAt < VERSION_CHECK_MS && t >= checkedAt
      ? snapshot
      : null;
  }

  async function current(): Promise<Snapshot> {
    const ready = settled();
    if (ready) return ready;
    if (snapshot && now() - snapshot.at < CACHE_TTL_MS) {
      await checkVersion(snapshot);
      if (snapshot) return snapshot;
    }
    // One load at a time; a load begun before an invalidate is not kept.
    if (!loading) {
      const started = generation;
      const p = load().then((s) => {
        if (started === generation) snapshot = s;
        return s;
      });
      loading = p;
      const done = () => {
        if (loading === p) loading = null;
      };
      p.then(done, done);
    }
    return loading;
  }

  return {
    /** The tenant for a browser host name; unknown or disabled hosts get the default tenant. */
    async resolve(rawHost: string | undefined): Promise<TenantRecord> {
      return pick(await current(), rawHost);
    },
    /**
     * `resolve` without waiting, when the answer is known without the database (nearly every
     * request): null otherwise. Lets the per-request hook skip a promise (issue 15).
     */
    resolveNow(rawHost: string | undefined): TenantRecord | null {
      const s = settled();
      return s ? pick(s, rawHost) : null;
    },
    findByCode: (code: string) => repo.findByCode(code),
    list: () => repo.list(),
    /** Call after any write to tenants or their domains (other replicas follow the version row). */
    invalidate,
  };
}
