import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { rateLimitHits } from './auth.tables.ts';

/** Windows older than this are deleted by the cleanup task (the longest window is far shorter). */
const KEEP_MS = 24 * 3600_000;

/**
 * Counts one hit of `key` in its fixed window and answers the count and the time left, in one
 * atomic statement: replicas sharing the database share the count.
 */
export async function countHit(db: Db, key: string, windowMs: number, nowMs: number) {
  const windowStart = new Date(Math.floor(nowMs / windowMs) * windowMs);
  const rows = await db
    .insert(rateLimitHits)
    .values({ key, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.key, rateLimitHits.windowStart],
      set: { hits: sql`${rateLimitHits.hits} + 1` },
    })
    .returning({ hits: rateLimitHits.hits });
  return { current: rows[0]?.hits ?? 1, ttl: windowStart.getTime() + windowMs - nowMs };
}

export async function deleteOldHits(db: Db, nowMs: number) {
  const gone = await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.windowStart, new Date(nowMs - KEEP_MS)))
    .returning({ key: rateLimitHits.key });
  return { deleted: gone.length };
}
