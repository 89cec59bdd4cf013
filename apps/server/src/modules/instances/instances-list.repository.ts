import type { InstanceStatus } from '@gpu/shared';
import { and, desc, eq, gte, inArray, isNull, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pageIdsFromNearerEnd } from '../../platform/db/paging.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { type TallyDef, talliedCount, totalOf } from '../../platform/db/tallies.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { listedWithPlace } from './instances.place.ts';
import { instances } from './instances.tables.ts';

export interface InstanceListQuery {
  page: number;
  size: number;
  status?: InstanceStatus[];
  /** Leave out released instances, except those released at or after `since` (when given). */
  hideReleased?: { since?: Date };
}

type Value<T> = T | Placeholder;

/**
 * Every instance a user ever had (never deleted; user and tenant never change): the back office's
 * count, and the console list's total less the few dismissed (instances_user_dismissed).
 */
export const INSTANCES_TALLY: TallyDef = {
  name: 'instances',
  table: 'instances',
  userColumn: 'user_id',
  tenantColumn: 'tenant_id',
};

const owned = (userId: Value<number>, tenantId: Value<number>) => [
  eq(instances.userId, userId),
  eq(instances.tenantId, tenantId),
  isNull(instances.dismissedAt),
];
// Written out, not bound: a prepared statement's plan then matches the partial indexes' conditions.
const LIVE = sql`${instances.status} <> 'RELEASED'`;
const RELEASED = sql`${instances.status} = 'RELEASED'`;
const shown = (since: Value<Date> | undefined) =>
  or(LIVE, since ? gte(instances.releasedAt, since) : undefined);

/**
 * A page of the user's instances with their places, newest first: the page's ids first
 * (instances_user_list), then only their rows, the total riding along (one round trip).
 */
const pageOf = (
  db: DbOrTx,
  where: SQL | undefined,
  limit: Value<number>,
  offset: Value<number>,
  parts?: { total: SQL<number>; ids: SQL },
) => {
  const total =
    parts?.total ?? sql<number>`(select count(*) from instances where ${where})::int`.mapWith(Number);
  const ids =
    parts?.ids ??
    db
      .select({ id: instances.id })
      .from(instances)
      .where(where)
      .orderBy(desc(instances.id))
      .limit(limit)
      .offset(offset);
  return db
    .select({ ...listedWithPlace, total })
    .from(instances)
    .innerJoin(hosts, eq(hosts.id, instances.hostId))
    .innerJoin(regions, eq(regions.id, instances.regionId))
    .where(inArray(instances.id, ids))
    .orderBy(desc(instances.id));
};

const param = sql.placeholder;
/**
 * The list as the console opens it (all; released hidden but those released while the page was
 * open), each one statement built and planned once per connection (issue 33: building and
 * planning it was most of the page's cost).
 */
const allPage = preparedStatement('instances_page_all', (db) => {
  const who = { userId: param('userId'), tenantId: param('tenantId') };
  // Every instance the user had (tallied) less the dismissed ones: exact, without counting the
  // list; so a deep page is read from its nearer end.
  const everything = and(eq(instances.userId, who.userId), eq(instances.tenantId, who.tenantId));
  const dismissed = sql`(select count(*) from instances where ${everything} and ${instances.dismissedAt} is not null)`;
  const total =
    sql<number>`(${talliedCount(INSTANCES_TALLY, who, {}, everything)} - ${dismissed})::int`.mapWith(Number);
  const ids = pageIdsFromNearerEnd({
    table: 'instances',
    where: and(...owned(who.userId, who.tenantId)),
    forward: sql`${instances.id} desc`,
    backward: sql`${instances.id} asc`,
    limit: param('limit'),
    offset: param('offset'),
    total,
  });
  return pageOf(db, undefined, param('limit'), param('offset'), { total, ids });
});
const shownPage = preparedStatement('instances_page_shown', (db) => {
  const mine = owned(param('userId'), param('tenantId'));
  // The same rows in two parts, each from its own small partial index (instances_user_live,
  // _released), instead of reading past every instance the customer ever released. Those
  // released while the page was open are few: taken whole, no order, so that even a generic
  // plan (which cannot know how few) reads them by release time, not every id backwards.
  const live = and(...mine, LIVE);
  const justReleased = and(...mine, RELEASED, gte(instances.releasedAt, param('since')));
  const total = sql<number>`((select count(*) from instances where ${live})
    + (select count(*) from instances where ${justReleased}))::int`.mapWith(Number);
  const upTo = sql`${param('limit')}::int + ${param('offset')}::int`;
  const ids = sql`(select id from (
      (select id from instances where ${live} order by id desc limit ${upTo})
      union all
      (select id from instances where ${justReleased})
    ) shown order by id desc limit ${param('limit')} offset ${param('offset')})`;
  return pageOf(db, undefined, param('limit'), param('offset'), { total, ids });
});
type Found = Awaited<ReturnType<typeof pageOf>>;

export async function listInstancesOf(db: DbOrTx, userId: number, tenantId: number, q: InstanceListQuery) {
  const limit = q.size;
  const offset = (q.page - 1) * q.size;
  const since = q.hideReleased?.since;
  if (!q.status && (!q.hideReleased || since)) {
    const found = (await (since
      ? shownPage(db, { userId, tenantId, limit, offset, since })
      : allPage(db, { userId, tenantId, limit, offset }))) as Found;
    if (found[0]) return { rows: found, total: Number(found[0].total) };
  }
  const where = and(
    ...owned(userId, tenantId),
    q.status ? inArray(instances.status, q.status) : undefined,
    q.hideReleased ? shown(since) : undefined,
  );
  const total = sql<number>`(select count(*) from instances where ${where})::int`.mapWith(Number);
  const rows = await pageOf(db, where, limit, offset);
  return { rows, total: await totalOf(db, rows, total) };
}
