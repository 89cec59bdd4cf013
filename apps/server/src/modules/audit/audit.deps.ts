import type { Db } from '../../platform/db/client.ts';

export interface AuditDeps {
  db: Db;
}
