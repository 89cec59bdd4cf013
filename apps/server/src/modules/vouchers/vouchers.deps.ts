import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';

export interface VouchersDeps {
  db: Db;
  now: Now;
}
