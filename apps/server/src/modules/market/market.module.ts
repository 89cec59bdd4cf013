import { defineModule } from '../../platform/module.ts';
import type { DiscountService } from '../discounts/index.ts';
import type { HostDriverRegistry } from '../hosts/index.ts';
import type { TenantRecord } from '../tenants/index.ts';
import { imagesRoutes } from './images.routes.ts';
import type { MarketDeps } from './market.deps.ts';
import { createMarketReadModel } from './market.read-model.ts';
import type { MarketRow } from './market.repository.ts';
import { marketRoutes } from './market.routes.ts';
import { createMarketCatalog } from './market.usecases.ts';
import { marketSyncTask } from './tasks/sync.task.ts';

/** The market (listings, sync and its task) and the image catalogue. */
export const marketModule = defineModule({
  name: 'market',
  createDeps: (
    core,
    needs: {
      discounts: DiscountService;
      hostDrivers: HostDriverRegistry;
      /** The tenant's overseas offers (vast.ai, a module above this one), last in region order. */
      overseas: (tenant: TenantRecord) => Promise<MarketRow[]>;
    },
  ): MarketDeps => {
    const now = () => core.clock.now();
    const { db } = core;
    // The catalog computes the market; the read model around it keeps answers until invalidated.
    const catalog = createMarketCatalog({ db, now, discounts: needs.discounts, overseas: needs.overseas });
    const market = createMarketReadModel({
      catalog,
      discounts: needs.discounts,
      database: core.database,
      now,
      log: core.log,
    });
    return { db, clock: core.clock, hostDrivers: needs.hostDrivers, market };
  },
  register: async (app, deps) => {
    // Other replicas' changes reach this one's read model through PostgreSQL LISTEN.
    await deps.market.start();
    app.addHook('onClose', () => deps.market.stop());
    await marketRoutes(app, deps);
    await imagesRoutes(app, deps);
    app.tasks.register(marketSyncTask(deps));
  },
});
