import type { AdminActor, MarketSyncAnswer, MarketSyncResult } from '@gpu/shared';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import type { HostDriverRegistry } from '../hosts/index.ts';
import { probeHost, storeProbe } from '../hosts/index.ts';
import type { MarketCatalog } from './market.usecases.ts';
import { createSyncRepository } from './sync.repository.ts';

/** Every signed-in market page may ask; the hosts are probed at most this often, across replicas. */
export const SYNC_MIN_INTERVAL_MS = 30_000;

/** The platform's own sync, so the market stays current whoever visits it (every 60 s). */
export const MARKET_SYNC_TASK = 'market.sync';
export const MARKET_SYNC_TASK_INTERVAL_MS = 60_000;

export interface SyncDeps {
  db: Db;
  clock: Clock;
  hostDrivers: HostDriverRegistry;
  market: MarketCatalog;
}

/**
 * Probes every active host through its driver and stores the GPU inventory
 * the market counts. One claim row in app_meta makes it run once per interval across replicas;
 * callers inside the interval get the last result.
 */
export async function syncMarket(deps: SyncDeps): Promise<MarketSyncResult> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - SYNC_MIN_INTERVAL_MS);
  const repo = createSyncRepository(deps);
  if (!(await repo.claim(now, cutoff))) {
    const last = (await repo.last()) as Partial<MarketSyncResult> & { at: string };
    return {
      synced: false,
      lastSyncedAt: last.at,
      hostsChecked: last.hostsChecked ?? 0,
      hostsReachable: last.hostsReachable ?? 0,
      changes: last.changes ?? [],
    };
  }

  const active = await repo.probeableHosts();
  const probes = await Promise.all(active.map(async (h) => ({ host: h, probe: await probeHost(deps, h) })));
  const changes: MarketSyncResult['changes'] = [];
  for (const { host, probe } of probes) {
    const sync = await deps.db.transaction((tx) => storeProbe(tx, deps.clock.now(), host.id, probe));
    if (!probe.reachable || (sync && (sync.deleted > 0 || sync.missing > 0))) {
      changes.push({
        hostName: host.name,
        reachable: probe.reachable,
        gpus: probe.gpus.length,
        removedGpus: sync?.deleted ?? 0,
        missingGpus: sync?.missing ?? 0,
        error: probe.reachable ? null : (probe.error ?? '无法连接'),
      });
    }
  }
  const result: MarketSyncResult = {
    synced: true,
    lastSyncedAt: now.toISOString(),
    hostsChecked: active.length,
    hostsReachable: probes.filter((p) => p.probe.reachable).length,
    changes,
  };
  await repo.save({
    at: result.lastSyncedAt,
    hostsChecked: result.hostsChecked,
    hostsReachable: result.hostsReachable,
    changes,
  });
  deps.market.invalidate();
  return result;
}

/**
 * POST /api/admin/market/sync: the platform's sync, with the detail (host names, reachability,
 * the driver's error), audited.
 */
export async function adminSyncMarket(deps: SyncDeps, actor: AdminActor): Promise<MarketSyncResult> {
  const result = await syncMarket(deps);
  await recordAudit(deps.db, actor, 'market.sync', 'market', {
    synced: result.synced,
    hostsChecked: result.hostsChecked,
    hostsReachable: result.hostsReachable,
  });
  return result;
}

/**
 * POST /api/gpu/sync (SPEC.md §7, the market page's background sync): the same sync, but the
 * customer learns only whether it ran and when. Host names, counts and driver errors (addresses,
 * key parsing) are the platform's business, not any tenant's customers'.
 */
export async function customerSyncMarket(deps: SyncDeps): Promise<MarketSyncAnswer> {
  const { synced, lastSyncedAt } = await syncMarket(deps);
  return { synced, lastSyncedAt };
}
