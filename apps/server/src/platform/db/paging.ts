import { desc, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';
import { preparedStatement } from './prepared.ts';
import { TALLY_BOOKMARK_EVERY, type TallyDef, talliedCount } from './tallies.ts';

type Value = number | Placeholder;

/**
 * The ids of one page (`limit` rows after `offset`, in `forward` order) of a list whose exact
 * `total` is cheap (a tally), read from whichever end of the list is nearer: the last pages of a
 * long list skip a few index entries from its far end instead of nearly all of them from the
 * front (issue 33: page 1,000 of 10,010 rows). `backward` is `forward` reversed; the caller puts
 * the rows back in `forward` order. Exactly one branch runs: each is gated by a condition on
 * values alone, which PostgreSQL checks once before reading anything. The total (and bookmark)
 * are read once, in CTEs: written inline, each of their ~16 uses was a subquery of its own, about
 * half of a page's PostgreSQL work (issue 33).
 */
export function pageIdsFromNearerEnd(o: {
  /** A trusted table name from the code. */
  table: string;
  where: SQL | undefined;
  forward: SQL;
  backward: SQL;
  limit: Value;
  offset: Value;
  total: SQL;
  /**
   * The id of the `nth` row in ascending id order of exactly the rows `where` selects, or null
   * (a tally's bookmarks): with it, a page far from both ends seeks there and skips fewer than
   * TALLY_BOOKMARK_EVERY rows. Only for lists in id order (`forward` is id descending).
   */
  bookmark?: (nth: SQL) => SQL;
}): SQL {
  const table = sql.raw(o.table);
  const limit = sql`${o.limit}::int`;
  const offset = sql`${o.offset}::int`;
  const total = sql`(select n from page_total)`;
  // The page's first row in ascending order, and how many rows it has.
  const first = sql`greatest(0, ${total} - ${offset} - ${limit})`;
  const count = sql`greatest(0, least(${limit}, ${total} - ${offset}))`;
  const nth = sql`(${first} / ${TALLY_BOOKMARK_EVERY}) * ${TALLY_BOOKMARK_EVERY}`;
  const mark = o.bookmark ? sql`(select id from page_mark)` : sql`null::bigint`;
  const seek = sql`(${mark} is not null and least(${offset}, ${first}) >= ${TALLY_BOOKMARK_EVERY})`;
  const front = sql`not ${seek} and ${offset} * 2 <= ${total}`;
  const back = sql`not ${seek} and ${offset} * 2 > ${total}`;
  const marked = o.bookmark ? sql`, page_mark as materialized (select ${o.bookmark(nth)} as id)` : sql``;
  return sql`(with page_total as materialized (select (${o.total})::int as n)${marked}
  select id from (
    (select id from ${table} where ${o.where} and ${front} order by ${o.forward} limit ${limit} offset ${offset})
    union all
    (select id from ${table} where ${o.where} and ${back} order by ${o.backward}
      limit ${count} offset ${first})
    union all
    (select id from ${table} where ${o.where} and ${seek} and id >= ${mark} order by id
      limit ${count} offset ${first} - ${nth})
  ) page)`;
}

/**
 * A tallied list's page as it opens, for a prepared statement (placeholders `limit` and
 * `offset`): its exact total and its page's ids, read from the nearer end, or from the nearest
 * bookmark when the tally keeps them and the list is all of the user's rows in id order.
 */
export function talliedPage(
  def: TallyDef,
  o: {
    who: Parameters<typeof talliedCount>[1];
    keys?: Parameters<typeof talliedCount>[2];
    where: SQL | undefined;
    forward: SQL;
    backward: SQL;
  },
): { total: SQL<number>; ids: SQL } {
  const total = talliedCount(def, o.who, o.keys ?? {}, o.where);
  const page = { limit: sql.placeholder('limit'), offset: sql.placeholder('offset') };
  const allRows = !o.keys?.k1?.length && !o.keys?.k2?.length;
  const bookmark =
    def.bookmarks && allRows
      ? (nth: SQL) => sql`(select id from row_tally_bookmarks where tally = ${def.name}
          and user_id = ${o.who.userId} and tenant_id = ${def.tenantColumn ? (o.who.tenantId ?? 0) : 0}
          and nth = ${nth})`
      : undefined;
  return { total, ids: pageIdsFromNearerEnd({ table: def.table, ...o, ...page, total, bookmark }) };
}

/**
 * The rows of the `ids` placeholder (an integer array), for a prepared statement that reads a
 * page's rows by ids a statement of their own picked first. Its generic plan counts on the array's
 * few rows whatever the table's size, so PostgreSQL keeps it. With the ids picked in the same
 * statement, the generic plan took a placeholder offset for a tenth of the table: on a fleet-size
 * table the whole statement was planned afresh on every view (0.8 ms, issue 33), while the ids'
 * own one-table statement costs little to plan.
 */
export const rowsOfIds = sql`select unnest(${sql.placeholder('ids')}::int[]) as id`;

/**
 * The ids of one page of a whole table, newest first, as the prepared statement `name` (the ids
 * half of a page read with rowsOfIds; planning it afresh each time costs little: one table).
 */
export function newestIds(name: string, table: PgTable, id: PgColumn) {
  const statement = preparedStatement(name, (db) =>
    db
      .select({ id })
      .from(table)
      .orderBy(desc(id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  return async (db: DbOrTx, page: { limit: number; offset: number }): Promise<number[]> =>
    (await statement(db, page)).map((r) => Number(r.id));
}
