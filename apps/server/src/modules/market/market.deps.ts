import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { MarketReadModel } from './market.read-model.ts';
import type { SyncDeps } from './sync.usecases.ts';

export interface MarketDeps extends SyncDeps {
  db: Db;
  clock: Clock;
  /** The market's answers, kept until something that changes the market invalidates them. */
  market: MarketReadModel;
}
