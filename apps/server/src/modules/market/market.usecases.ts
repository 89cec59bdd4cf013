import type { MarketList, MarketQuery, PackagePrices } from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { deepFreeze } from '../../platform/freeze.ts';
import type { DiscountService } from '../discounts/index.ts';
import type { TenantRecord } from '../tenants/index.ts';
import { filterOptions, filterRows, packageKey, toMarketItem } from './market.models.ts';
import { createMarketRepository, type MarketRow, scopeOf } from './market.repository.ts';
import { createSyncRepository } from './sync.repository.ts';

/**
 * The market is read far more than it changes: keep each tenant's rows for a moment and drop
 * them on any write that changes listings, prices or GPU allocation (invalidate()). Other
 * replicas see a change within CACHE_MS.
 */
const CACHE_MS = 2_000;

export type MarketCatalog = ReturnType<typeof createMarketCatalog>;

export function createMarketCatalog({
  db,
  now,
  discounts,
  overseas,
}: {
  db: Db;
  now: Now;
  discounts: DiscountService;
  /** The tenant's overseas items (vast.ai offers stored by their refresh task), last in region order. */
  overseas?: (tenant: TenantRecord) => Promise<MarketRow[]>;
}) {
  const repo = createMarketRepository({ db });
  const rowsCache = new Map<
    number,
    { at: number; rows: MarketRow[]; options: ReturnType<typeof filterOptions> }
  >();
  let shared: { at: number; packages: Map<string, PackagePrices>; lastSyncedAt: string | null } | null = null;

  const fresh = (at: number) => {
    const t = now().getTime();
    return t - at < CACHE_MS && t >= at;
  };

  async function snapshot(tenant: TenantRecord) {
    const hit = rowsCache.get(tenant.id);
    if (hit && fresh(hit.at)) return hit;
    const scope = scopeOf(tenant);
    const [local, abroad, overseasRegions] = await Promise.all([
      repo.listForTenant(scope),
      // The overseas area never fails the rest of the market.
      overseas ? overseas(tenant).catch(() => []) : [],
      // Offered even with no machine in them (no vast.ai key, no host of ours there).
      repo.overseasRegions(scope),
    ]);
    const rows = [...local, ...abroad];
    // Shared by every market answer and quote until dropped: frozen, so none can change them.
    const entry = deepFreeze({ at: now().getTime(), rows, options: filterOptions(rows, overseasRegions) });
    rowsCache.set(tenant.id, entry);
    return entry;
  }

  async function sharedData() {
    if (shared && fresh(shared.at)) return shared;
    const [prices, meta] = await Promise.all([repo.packagePrices(), createSyncRepository({ db }).last()]);
    const packages = new Map(
      prices.map((p) => [
        packageKey(p.gpuType, p.regionId, p.platform),
        { daily: p.dailyPrice, weekly: p.weeklyPrice, monthly: p.monthlyPrice },
      ]),
    );
    const value = meta as { at?: string } | undefined;
    shared = deepFreeze({ at: now().getTime(), packages, lastSyncedAt: value?.at ?? null });
    return shared;
  }

  return {
    sharedData,
    invalidate() {
      rowsCache.clear();
      shared = null;
    },
    async list(tenant: TenantRecord, q: MarketQuery): Promise<MarketList> {
      const [snap, rules, data] = await Promise.all([
        snapshot(tenant),
        discounts.rulesFor(tenant.id),
        sharedData(),
      ]);
      const matching = filterRows(snap.rows, q);
      const start = (q.page - 1) * q.size;
      const ctx = {
        tenantId: tenant.id,
        now: now(),
        rules,
        billingType: q.billingType,
        packages: data.packages,
      };
      return {
        list: matching.slice(start, start + q.size).map((r) => toMarketItem(r, ctx)),
        total: matching.length,
        page: q.page,
        size: q.size,
        lastSyncedAt: data.lastSyncedAt,
        ...snap.options,
      };
    },
  };
}
