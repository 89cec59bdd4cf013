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
  return cappedTotal(Number(row?.n ?? 0));
}

/**
 * The cap's numbers written into the text, not bound: a prepared statement's generic plan then
 * knows the count's limit. Bound, it took the limit for a tenth of the table, and on a table
 * over 100,000 rows PostgreSQL planned the statement afresh on every view (issue 33).
 */
const CAP_ROWS = sql.raw(String(TOTAL_CAP + 1));
const CAP_TWICE = sql.raw(String(2 * (TOTAL_CAP + 1)));

/**
 * The capped count of a whole table (no filter), as a scalar expression. Once the planner's own
 * count of its rows (`pg_class.reltuples`, kept by ANALYZE and autovacuum) is twice what the cap
 * counts to, the answer is "over the cap" without reading TOTAL_CAP + 1 index entries on every
 * view (half a millisecond of PostgreSQL per page of the audit log or the users, issue 33).
 * Below that, or before the first ANALYZE (-1), it counts. Only for tables that never lose half
 * their rows between two analyzes: the audit log is append-only, users are deleted one by one.
 */
export const cappedTableCount = (table: string) =>
  sql<number>`(case when (select reltuples from pg_class where oid = ${table}::regclass) >= ${CAP_TWICE}
    then ${CAP_ROWS}
    else (select count(*) from (select 1 from ${sql.identifier(table)} limit ${CAP_ROWS}) c) end)::int`;

/** A count as the lists answer it: the exact number, or the cap and a flag when over it. */
export const cappedTotal = (n: number): { total: number; totalCapped?: true } =>
  n > TOTAL_CAP ? { total: TOTAL_CAP, totalCapped: true } : { total: n };

/** A whole table's capped total on its own (cappedTableCount). */
export async function cappedTableTotal(db: DbOrTx, table: string) {
  const [row] = await rowsOf<{ n: number }>(db, sql`select ${cappedTableCount(table)} as n`);
  return cappedTotal(Number(row?.n ?? 0));
}
