import type { AggregateCache } from '../../platform/aggregate-cache.ts';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { InstanceDeps } from '../instances/index.ts';

export interface OperationsDeps {
  db: Db;
  now: Now;
  /** The admin's instance actions run the instances' own lifecycle. */
  instances: InstanceDeps;
  /** Statistics over whole tables, reused for a short while per key (issue 33). */
  stats: AggregateCache;
}
