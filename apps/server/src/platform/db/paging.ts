import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type TallyDef, talliedCount } from './tallies.ts';

type Value = number | Placeholder;

/**
 * The ids of one page (`limit` rows after `offset`, in `forward` order) of a list whose exact
 * `total` is cheap (a tally), read from whichever end of the list is nearer: the last pages of a
 * long list skip a few index entries from its far end instead of nearly all of them from the
 * front (issue 33: page 1,000 of 10,010 rows). `backward` is `forward` reversed; the caller puts
 * the rows back in `forward` order. Exactly one branch runs: each is gated by a condition on
 * values alone, which PostgreSQL checks once before reading anything.
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
}): SQL {
  const table = sql.raw(o.table);
  const limit = sql`${o.limit}::int`;
  const offset = sql`${o.offset}::int`;
  const front = sql`${offset} * 2 <= ${o.total}`;
  return sql`(select id from (
    (select id from ${table} where ${o.where} and ${front} order by ${o.forward} limit ${limit} offset ${offset})
    union all
    (select id from ${table} where ${o.where} and not (${front}) order by ${o.backward}
      limit greatest(0, least(${limit}, ${o.total} - ${offset})) offset greatest(0, ${o.total} - ${offset} - ${limit}))
  ) page)`;
}

/**
 * A tallied list's page as it opens, for a prepared statement (placeholders `limit` and
 * `offset`): its exact total and its page's ids, read from the nearer end.
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
  return { total, ids: pageIdsFromNearerEnd({ table: def.table, ...o, ...page, total }) };
}
