import { TOTAL_CAP } from '@gpu/shared';
import { type SQL, sql } from 'drizzle-orm';
import { cappedCount, cappedTableCount, cappedTotal } from '../../platform/db/capped-count.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { containing } from '../../platform/db/like.ts';
import { newestIds, rowsOfIds } from '../../platform/db/paging.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { talliedCount } from '../../platform/db/tallies.ts';
import { users } from '../auth/auth.tables.ts';
import { INSTANCES_TALLY } from '../instances/index.ts';

export interface UserFilter {
  keyword?: string;
  tenantId?: number;
  from?: Date;
  toExclusive?: Date;
}
export interface UserSort {
  by: 'createdAt' | 'available' | 'totalSpend';
  order: 'asc' | 'desc';
}
type UserRow = Record<string, unknown>;

const param = sql.placeholder;

/**
 * A row of the back office's users page (over `users u`, `tenants t`, `accounts a`): its figures
 * read per row of the page only: the kept spend, the instances tally (INSTANCES_TALLY) and the
 * running ones (`instances_user_running`), never all of a user's instances or bill lines.
 */
const USER_FIELDS = {
  id: sql`u.id`,
  phone: sql`u.phone`,
  username: sql`u.username`,
  tenant_id: sql`u.tenant_id`,
  tenant_name: sql`t.name`,
  status: sql`u.status`,
  available: sql`coalesce(a.available, 0)::text`,
  frozen: sql`coalesce(a.frozen, 0)::text`,
  spend: sql`coalesce(a.spent, 0)::text`,
  instances: talliedCount(
    INSTANCES_TALLY,
    { userId: sql`u.id`, tenantId: sql`u.tenant_id` },
    {},
    sql`instances.user_id = u.id and instances.tenant_id = u.tenant_id`,
  ),
  running: sql`(select count(*) from instances i where i.user_id = u.id and i.status = 'RUNNING')::int`,
  created_at: sql`u.created_at`,
  last_login_at: sql`u.last_login_at`,
};
/** The page's users (`page`: ids and their sort key) with their tenant and account. */
const withFigures = (page: SQL) => sql`(${page}) p
  join users u on u.id = p.id join tenants t on t.id = u.tenant_id
  left join accounts a on a.user_id = u.id`;

/**
 * The page as it opens (no filter, newest first): its ids, then its rows with the capped total
 * riding along, each a statement built and planned once (issue 33: planning the page took longer
 * than running it; why two, see rowsOfIds).
 */
const openingIds = newestIds('admin_users_page_ids', users, users.id);
const openingPage = preparedStatement('admin_users_page', (db) =>
  db
    .select({ ...USER_FIELDS, total: cappedTableCount('users') })
    .from(withFigures(rowsOfIds))
    .orderBy(sql`u.id desc`),
) as (db: DbOrTx, v: { ids: number[] }) => Promise<(UserRow & { total: number })[]>;

/** A user matching the search box: its phone or user name contains the words (pg_trgm's indexes). */
const matches = (pattern: SQL | ReturnType<typeof param>) =>
  sql`(u.phone ilike ${pattern} or u.username ilike ${pattern})`;

/**
 * The search as the screen sends it (a keyword, newest first): prepared like the opening page,
 * its capped total riding along. Built and planned each time, planning the trigram scans and the
 * count as two statements took more PostgreSQL time than running them.
 */
const searchPage = preparedStatement('admin_users_search', (db) =>
  db
    .select({
      ...USER_FIELDS,
      total: sql`(select count(*) from (select 1 from users u where ${matches(param('pattern'))} limit ${TOTAL_CAP + 1}) c)::int`,
    })
    .from(
      withFigures(
        sql`select u.id from users u where ${matches(param('pattern'))} order by u.id desc limit ${param('limit')} offset ${param('offset')}`,
      ),
    )
    .orderBy(sql`u.id desc`),
) as (
  db: DbOrTx,
  v: { pattern: string; limit: number; offset: number },
) => Promise<(UserRow & { total: number })[]>;

/** The back office's users page: `rows` in the page's order, and the total (capped). */
export async function usersPage(
  db: DbOrTx,
  f: UserFilter,
  page: { page: number; size: number },
  sort: UserSort,
): Promise<{ rows: UserRow[]; total: number; totalCapped?: true }> {
  const offset = (page.page - 1) * page.size;
  const opening = !f.keyword && !f.tenantId && !f.from && !f.toExclusive;
  if (opening && sort.by === 'createdAt' && sort.order === 'desc') {
    const ids = await openingIds(db, { limit: page.size, offset });
    const rows = ids.length > 0 ? await openingPage(db, { ids }) : [];
    if (rows[0]) return { rows, ...cappedTotal(Number(rows[0].total)) };
  }
  if (
    f.keyword &&
    !f.tenantId &&
    !f.from &&
    !f.toExclusive &&
    sort.by === 'createdAt' &&
    sort.order === 'desc'
  ) {
    const rows = await searchPage(db, { pattern: containing(f.keyword), limit: page.size, offset });
    if (rows[0]) return { rows, ...cappedTotal(Number(rows[0].total)) };
  }
  const direction = sort.order === 'asc' ? sql`asc` : sql`desc`;
  const where = sql.join(
    [
      sql`true`,
      f.keyword ? matches(sql`${containing(f.keyword)}`) : null,
      f.tenantId ? sql`u.tenant_id = ${f.tenantId}` : null,
      f.from ? sql`u.created_at >= ${f.from.toISOString()}::timestamptz` : null,
      f.toExclusive ? sql`u.created_at < ${f.toExclusive.toISOString()}::timestamptz` : null,
    ].filter((x): x is SQL => x !== null),
    sql` and `,
  );
  // The page's users first, in an order an index serves (users' key; accounts_available,
  // accounts_spent), then the figures of those few only.
  const byAccount = (column: SQL) => sql`select u.id, ${column} as sort_key from accounts a
      join users u on u.id = a.user_id
      where ${where} order by ${column} ${direction}, a.user_id ${direction}`;
  const pageOf = {
    createdAt: sql`select u.id, 0 as sort_key from users u where ${where} order by u.id ${direction}`,
    available: byAccount(sql`a.available`),
    totalSpend: byAccount(sql`a.spent`),
  }[sort.by];
  const tieBreak = sort.by === 'createdAt' ? sql`desc` : direction;
  const [rows, count] = await Promise.all([
    db
      .select(USER_FIELDS)
      .from(withFigures(sql`${pageOf} limit ${page.size} offset ${offset}`))
      .orderBy(sql`p.sort_key ${direction}, u.id ${tieBreak}`) as Promise<UserRow[]>,
    cappedCount(db, sql`select 1 from users u where ${where}`),
  ]);
  return { rows, ...count };
}
