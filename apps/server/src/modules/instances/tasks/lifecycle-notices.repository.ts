import { and, eq, gte, inArray, isNotNull, lte, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { instances } from '../instances.tables.ts';

/** What the lifecycle notices (issue 31) read: packages near or past their end, stopped instances. */
export function createLifecycleNoticesRepository({ db }: { db: DbOrTx }) {
  return {
    /** Packages whose end lies between `from` and `to`, not released or failed. */
    packagesEnding: (from: Date, to: Date) =>
      db
        .select({
          id: instances.id,
          userId: instances.userId,
          name: instances.name,
          expiresAt: instances.expiresAt,
          createdAt: instances.createdAt,
        })
        .from(instances)
        .where(
          and(
            ne(instances.billingType, 'hourly'),
            inArray(instances.status, ['RUNNING', 'STOPPING', 'STOPPED', 'STARTING']),
            isNotNull(instances.expiresAt),
            gte(instances.expiresAt, from),
            lte(instances.expiresAt, to),
          ),
        ),
    /** Stopped instances (the retention task's candidates) with what their notice names. */
    stoppedSince: (before: Date) =>
      db
        .select({
          id: instances.id,
          userId: instances.userId,
          name: instances.name,
          stoppedAt: instances.stoppedAt,
          warning: instances.warning,
        })
        .from(instances)
        .where(and(eq(instances.status, 'STOPPED'), lte(instances.stoppedAt, before))),
  };
}
