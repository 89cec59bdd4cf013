import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Task } from '../tasks.ts';
import type { Db, DbOrTx } from './client.ts';
import { runExclusively } from './exclusive.ts';
import { rowsOf } from './rows.ts';

/**
 * A per-user count of an append-only table (no row is ever deleted, and the user, tenant and
 * key columns of a row never change), kept up to a settled id so that a list's exact total is
 * the tally plus the few rows after it (issue 33: counting a large customer's 20,000 bill
 * lines on every page view was most of the page's cost).
 */
export interface TallyDef {
  /** Unique; also the task's lock. */
  name: string;
  /** Trusted SQL names from the code, never input. */
  table: string;
  userColumn: string;
  tenantColumn?: string;
  /** The keys a list's filters match on, as SQL over the table's columns ('' when unused). */
  k1?: string;
  k2?: string;
  /** Keep `row_tally_bookmarks` (every TALLY_BOOKMARK_EVERY-th id of a user's rows, all keys). */
  bookmarks?: boolean;
}

/**
 * How long after a mark no row below its id can still commit: ids are handed out in order but
 * transactions commit in any order, so a row taken before the mark may become visible after it.
 * Every transaction here is short (no outside work runs in one, DESIGN §1), far below this.
 */
export const TALLY_SETTLE_MS = 10 * 60_000;
export const TALLY_INTERVAL_MS = 5 * 60_000;
/** A bookmark per this many rows: a middle page skips fewer than this many index entries. */
export const TALLY_BOOKMARK_EVERY = 1000;

/**
 * One run of a tally's task, exclusive across replicas: records the table's highest visible id
 * now, then counts every row up to the newest mark at least `settleMs` old into the tallies,
 * in the same transaction as the new `done_upto`, so a reader sees both or neither.
 * Returns how many rows it counted.
 */
export async function rollTally(db: Db, def: TallyDef, settleMs = TALLY_SETTLE_MS): Promise<number> {
  const table = sql.raw(def.table);
  let counted = 0;
  await runExclusively(db, `tally:${def.name}`, async (tx) => {
    await tx.execute(sql`
      insert into row_tally_marks (tally, taken_at, upto)
      select ${def.name}, now(), coalesce(max(id), 0) from ${table}
      on conflict do nothing`);
    const settled = sql`now() - make_interval(secs => ${settleMs / 1000})`;
    const [mark] = await rowsOf<{ target: string | null; done: string | null }>(
      tx,
      sql`select (select max(upto) from row_tally_marks where tally = ${def.name} and taken_at <= ${settled}) as target,
                 (select done_upto from row_tally_state where tally = ${def.name}) as done`,
    );
    const target = Number(mark?.target ?? 0);
    const done = Number(mark?.done ?? 0);
    await tx.execute(
      sql`delete from row_tally_marks where tally = ${def.name} and upto <= ${target} and taken_at <= ${settled}`,
    );
    if (target <= done) return;
    const tenant = sql.raw(def.tenantColumn ?? '0');
    if (def.bookmarks) await addBookmarks(tx, def, done, target);
    const [n] = await rowsOf<{ n: string }>(
      tx,
      sql`with src as (
            select ${sql.raw(def.userColumn)} as u, ${tenant} as t, ${sql.raw(def.k1 ?? "''")} as k1, ${sql.raw(def.k2 ?? "''")} as k2, count(*) as n
            from ${table} where id > ${done} and id <= ${target} group by 1, 2, 3, 4),
          added as (
            insert into row_tallies (tally, user_id, tenant_id, k1, k2, n) select ${def.name}, u, t, k1, k2, n from src
            on conflict (tally, user_id, tenant_id, k1, k2) do update set n = row_tallies.n + excluded.n)
          select coalesce(sum(n), 0) as n from src`,
    );
    await tx.execute(sql`
      insert into row_tally_state (tally, done_upto) values (${def.name}, ${target})
      on conflict (tally) do update set done_upto = excluded.done_upto`);
    counted = Number(n?.n ?? 0);
  });
  return counted;
}

/**
 * The bookmarks of the rows in (`done`, `target`], before they are tallied: a row's rank among
 * its user's rows is the tally so far (every row below `done`, all keys) plus its rank among the
 * new ones; each rank that is a multiple of TALLY_BOOKMARK_EVERY is kept with its id.
 */
async function addBookmarks(tx: DbOrTx, def: TallyDef, done: number, target: number) {
  const user = sql.raw(def.userColumn);
  const tenant = sql.raw(def.tenantColumn ?? '0');
  await tx.execute(sql`
    with before as (
      select user_id as u, tenant_id as t, sum(n) as c0 from row_tallies where tally = ${def.name} group by 1, 2),
    ranked as (
      select ${user} as u, ${tenant} as t, id, row_number() over (partition by ${user}, ${tenant} order by id) as rn
      from ${sql.raw(def.table)} where id > ${done} and id <= ${target})
    insert into row_tally_bookmarks (tally, user_id, tenant_id, nth, id)
    select ${def.name}, r.u, r.t, coalesce(b.c0, 0) + r.rn - 1, r.id
    from ranked r left join before b on b.u = r.u and b.t = r.t
    where (coalesce(b.c0, 0) + r.rn - 1) % ${TALLY_BOOKMARK_EVERY} = 0`);
}

/** The task that keeps a tally (every replica registers it; one runs it at a time). */
export const tallyTask = (db: Db, def: TallyDef): Task => ({
  name: `tally.${def.name}`,
  intervalMs: TALLY_INTERVAL_MS,
  run: () => rollTally(db, def),
});

const anyOf = (column: string, values?: readonly string[]) =>
  values?.length
    ? sql` and ${sql.raw(column)} in (${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )})`
    : sql``;

/**
 * The exact number of the user's rows matching `where` (the list's own condition, which must
 * say no more than the user, tenant and keys given here): the tally up to `done_upto` plus the
 * rows after it, counted through an index on (user[, tenant], id). One statement, one snapshot.
 */
export function talliedCount(
  def: TallyDef,
  /** Values, placeholders of a prepared statement, or a column of the outer query (per row). */
  who: { userId: number | Placeholder | SQL; tenantId?: number | Placeholder | SQL },
  keys: { k1?: readonly string[]; k2?: readonly string[] },
  where: SQL | undefined,
): SQL<number> {
  const done = sql`coalesce((select done_upto from row_tally_state where tally = ${def.name}), 0)`;
  const tallied = sql`(select coalesce(sum(n), 0) from row_tallies where tally = ${def.name}
    and user_id = ${who.userId} and tenant_id = ${def.tenantColumn ? (who.tenantId ?? 0) : 0}${anyOf('k1', keys.k1)}${anyOf('k2', keys.k2)})`;
  const live = sql`(select count(*) from ${sql.raw(def.table)} where ${where ?? sql`true`} and ${sql.raw(def.table)}.id > ${done})`;
  return sql<number>`(${tallied} + ${live})::int`.mapWith(Number);
}

/**
 * A list's total read as a column of its page's rows (one round trip); a page past the end has
 * no rows to carry it, so then it is read on its own.
 */
export async function totalOf(db: DbOrTx, rows: readonly { total: number }[], total: SQL<number>) {
  if (rows[0]) return rows[0].total;
  const [r] = await rowsOf<{ n: number }>(db, sql`select ${total} as n`);
  return Number(r?.n ?? 0);
}
