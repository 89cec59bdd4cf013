import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';

/**
 * Runs `fn` in a transaction holding a PostgreSQL advisory lock named `key`, or skips it when
 * another replica holds it (false). For database-only work; keep provider calls out of it.
 */
export async function runExclusively(db: Db, key: string, fn: (tx: Tx) => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ locked: sql<boolean>`pg_try_advisory_xact_lock(hashtext(${key}))` })
      .from(sql`(select 1) as one`);
    if (!row?.locked) return false;
    await fn(tx);
    return true;
  });
}
