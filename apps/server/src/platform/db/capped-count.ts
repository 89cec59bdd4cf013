import { TOTAL_CAP } from '@gpu/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';
import { rowsOf } from './rows.ts';

/**
 * The number of rows `rows` (a `select 1 from … where …`) yields, counting no further than
 * TOTAL_CAP + 1: a back-office list over a whole large table reads at most that many index
 * entries for its total, however large the table grows (issue 33).
 */
export async function cappedCount(db: DbOrTx, rows: SQL): Promise<{ total: number; totalCapped?: true }> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from (${rows} limit ${TOTAL_CAP + 1}) capped`,
  );
  const n = Number(row?.n ?? 0);
  return n > TOTAL_CAP ? { total: TOTAL_CAP, totalCapped: true } : { total: n };
}
