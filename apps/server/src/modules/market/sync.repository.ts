import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { appMeta } from '../../platform/db/meta.tables.ts';
import { hosts } from '../hosts/hosts.tables.ts';

/** The app_meta row holding the last market sync (its claim and its result). */
export const LAST_SYNC_KEY = 'market-last-sync';

export function createSyncRepository({ db }: { db: DbOrTx }) {
  return {
    /** Takes the sync when the last one started before `cutoff`; false when another holds it. */
    async claim(now: Date, cutoff: Date) {
      const claimed = await db
        .insert(appMeta)
        .values({ key: LAST_SYNC_KEY, value: { at: now.toISOString(), running: true } })
        .onConflictDoUpdate({
          target: appMeta.key,
          set: { value: { at: now.toISOString(), running: true } },
          setWhere: sql`(${appMeta.value}->>'at')::timestamptz <= ${cutoff.toISOString()}::timestamptz`,
        })
        .returning({ key: appMeta.key });
      return claimed.length > 0;
    },
    async last(): Promise<unknown> {
      const [row] = await db.select().from(appMeta).where(eq(appMeta.key, LAST_SYNC_KEY)).limit(1);
      return row?.value;
    },
    async save(value: Record<string, unknown>) {
      await db.update(appMeta).set({ value }).where(eq(appMeta.key, LAST_SYNC_KEY));
    },
    /** Active hosts whose driver can be probed. */
    probeableHosts: () =>
      db
        .select()
        .from(hosts)
        .where(and(eq(hosts.status, 'ACTIVE'), ne(hosts.driver, 'vastai'))),
  };
}
