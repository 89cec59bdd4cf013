import type { MarketList } from '@gpu/shared';
import type { Db } from '../../app/db/client.ts';
import type { TenantRecord } from '../tenants/tenants.repository.ts';
import { toMarketItem } from './market.models.ts';
import { createMarketRepository } from './market.repository.ts';

export async function listMarket(
  { db }: { db: Db },
  tenant: TenantRecord,
  q: { page: number; size: number },
): Promise<MarketList> {
  const repo = createMarketRepository({ db });
  const { rows, total } = await repo.list({ regionIds: tenant.config.visibleRegionResources, ...q });
  return { list: rows.map(toMarketItem), total, page: q.page, size: q.size, lastSyncedAt: null };
}
