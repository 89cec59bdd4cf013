import type { Clock, Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';

/** What balances, adjustments and bills take. */
export interface BillingDeps {
  db: Db;
  now: Now;
  clock: Clock;
}
