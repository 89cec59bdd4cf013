import type { Database } from '../../platform/db/client.ts';

export interface SystemDeps {
  database: Database;
}
