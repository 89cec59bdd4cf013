import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signal } from '../../test/signal.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import type { Database } from './client.ts';
import { rowsOf } from './rows.ts';
import { rollTally, type TallyDef, talliedCount } from './tallies.ts';

/** A stand-in append-only table: a user's rows of a tenant, each of a kind and a type. */
const probe = pgTable('tally_probe', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull(),
  tenantId: integer('tenant_id').notNull(),
  kind: text('kind').notNull(),
  type: text('type').notNull(),
});
const DEF: TallyDef = {
  name: 'probe',
  table: 'tally_probe',
  userColumn: 'user_id',
  tenantColumn: 'tenant_id',
  k1: 'kind',
  k2: 'type',
};
const KINDS = ['a', 'b', 'c'] as const;
const TYPES = ['x', 'y'] as const;

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table tally_probe (id serial primary key, user_id int not null,
    tenant_id int not null, kind text not null, type text not null)`);
  await database.db.execute(sql`create index tally_probe_user on tally_probe (user_id, tenant_id, id)`);
});
afterAll(() => database.close());
beforeEach(async () => {
  for (const t of ['tally_probe', 'row_tallies', 'row_tally_state', 'row_tally_marks', 'row_tally_bookmarks'])
    await database.db.execute(sql.raw(`delete from ${t}`));
});

type Filter = { userId: number; tenantId: number; kinds?: string[]; type?: string };
const condition = (f: Filter): SQL | undefined =>
  and(
    eq(probe.userId, f.userId),
    eq(probe.tenantId, f.tenantId),
    f.kinds?.length ? inArray(probe.kind, f.kinds) : undefined,
    f.type ? eq(probe.type, f.type) : undefined,
  );
const tallied = async (f: Filter, db = database.db) => {
  const [r] = await rowsOf<{ n: number }>(
    db,
    sql`select ${talliedCount(DEF, f, { k1: f.kinds, k2: f.type ? [f.type] : undefined }, condition(f))} as n`,
  );
  return Number(r?.n);
};
const counted = async (f: Filter) => {
  const [r] = await rowsOf<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from tally_probe where ${condition(f)}`,
  );
  return Number(r?.n);
};
const insert = (userId: number, tenantId: number, kind: string, type: string, db = database.db) =>
  db.insert(probe).values({ userId, tenantId, kind, type });
/** Every filter the lists use, for users 1–3 of tenants 1–2. */
const FILTERS: Filter[] = [1, 2, 3].flatMap((userId) =>
  [1, 2].flatMap((tenantId) => [
    { userId, tenantId },
    { userId, tenantId, kinds: ['a', 'c'] },
    { userId, tenantId, type: 'y' },
    { userId, tenantId, kinds: ['b'], type: 'x' },
  ]),
);

describe('row tallies (issue 33: exact list totals without counting every row)', () => {
  it('gives the exact count of every filter, however inserts and roll-ups interleave', async () => {
    const op = fc.oneof(
      fc.record({
        insert: fc.tuple(
          fc.integer({ min: 1, max: 3 }),
          fc.integer({ min: 1, max: 2 }),
          fc.constantFrom(...KINDS),
          fc.constantFrom(...TYPES),
        ),
      }),
      fc.record({ roll: fc.constant(true) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        for (const t of ['tally_probe', 'row_tallies', 'row_tally_state', 'row_tally_marks'])
          await database.db.execute(sql.raw(`delete from ${t}`));
        for (const o of ops) {
          if ('insert' in o) await insert(...o.insert);
          else await rollTally(database.db, DEF, 0);
        }
        for (const f of FILTERS) expect(await tallied(f), JSON.stringify(f)).toBe(await counted(f));
      }),
      { numRuns: 25 },
    );
  });

  it('counts each row into the tally once, and only up to a mark old enough', async () => {
    for (let k = 0; k < 5; k++) await insert(1, 1, 'a', 'x');
    // A mark younger than the settle time: nothing counted yet, the total is still exact.
    expect(await rollTally(database.db, DEF, 3_600_000)).toBe(0);
    expect(await tallied({ userId: 1, tenantId: 1 })).toBe(5);
    // Settled: the five rows counted, then never again.
    expect(await rollTally(database.db, DEF, 0)).toBe(5);
    expect(await rollTally(database.db, DEF, 0)).toBe(0);
    await insert(1, 1, 'b', 'y');
    expect(await rollTally(database.db, DEF, 0)).toBe(1);
    const [state] = await rowsOf<{ done: string }>(
      database.db,
      sql`select done_upto as done from row_tally_state where tally = 'probe'`,
    );
    const [max] = await rowsOf<{ id: number }>(database.db, sql`select max(id) as id from tally_probe`);
    expect(Number(state?.done)).toBe(max?.id);
    expect(await tallied({ userId: 1, tenantId: 1 })).toBe(6);
    expect(await tallied({ userId: 1, tenantId: 1, kinds: ['b'] })).toBe(1);
    // Settled marks are dropped once used: the table stays small.
    const marks = await rowsOf(database.db, sql`select 1 from row_tally_marks where tally = 'probe'`);
    expect(marks.length).toBe(0);
  });

  it('bookmarks the id of every 1,000th row of each user (all keys), across tally runs', async () => {
    const def: TallyDef = { ...DEF, name: 'probe-bm', bookmarks: true };
    // Two users' rows interleaved over three runs that end off the bookmarks' multiples.
    const add = (n: number) =>
      database.db.execute(sql`insert into tally_probe (user_id, tenant_id, kind, type)
        select case when g % 3 = 0 then 2 else 1 end, 1, case when g % 2 = 0 then 'a' else 'b' end, 'x'
        from generate_series(1, ${n}) g`);
    for (const n of [700, 1_900, 1_400]) {
      await add(n);
      await rollTally(database.db, def, 0);
    }
    const marks = await rowsOf<{ user_id: number; nth: string; id: string }>(
      database.db,
      sql`select user_id, nth, id from row_tally_bookmarks where tally = 'probe-bm' order by user_id, nth`,
    );
    const want = await rowsOf<{ user_id: number; nth: string; id: string }>(
      database.db,
      sql`select user_id, nth, id from (
        select user_id, row_number() over (partition by user_id order by id) - 1 as nth, id from tally_probe) r
        where nth % 1000 = 0 order by user_id, nth`,
    );
    expect(marks.map((m) => [m.user_id, Number(m.nth), Number(m.id)])).toEqual(
      want.map((m) => [m.user_id, Number(m.nth), Number(m.id)]),
    );
    // 4,000 rows: user 1 has 2,667 (marks 0, 1,000, 2,000), user 2 has 1,333 (0, 1,000).
    expect(marks.map((m) => [m.user_id, Number(m.nth)])).toEqual([
      [1, 0],
      [1, 1000],
      [1, 2000],
      [2, 0],
      [2, 1000],
    ]);
  });

  // Ids are handed out in order but committed in any order: only PostgreSQL runs two at once.
  it.runIf(process.env.DATABASE_URL)(
    'counts a row that commits after a higher id, once the mark has settled (PostgreSQL)',
    async () => {
      const late = database.db.transaction(async (tx) => {
        await insert(1, 1, 'a', 'x', tx); // takes the lower id, commits last
        await new Promise((r) => setTimeout(r, 400));
      });
      await new Promise((r) => setTimeout(r, 100));
      await insert(1, 1, 'a', 'x'); // the higher id, committed at once
      // A mark now (its id is above the uncommitted row's), settled after 300 ms.
      expect(await rollTally(database.db, DEF, 300)).toBe(0);
      await late;
      await new Promise((r) => setTimeout(r, 350));
      // Two replicas run the task at once: one counts, the other skips it.
      const runs = await Promise.all([rollTally(database.db, DEF, 300), rollTally(database.db, DEF, 300)]);
      expect(runs.sort()).toEqual([0, 2]);
      expect(await tallied({ userId: 1, tenantId: 1 })).toBe(2);
      expect(await counted({ userId: 1, tenantId: 1 })).toBe(2);
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    'without the settle time, such a row would be missed: why the marks wait (PostgreSQL)',
    async () => {
      // The late row takes its id first and commits after a later row and the roll (signals, not
      // sleeps: on a loaded runner a sleep let it commit before the roll).
      const inserted = signal();
      const commit = signal();
      const late = database.db.transaction(async (tx) => {
        await insert(2, 1, 'a', 'x', tx);
        inserted.fire();
        await commit.fired;
      });
      await inserted.fired;
      await insert(2, 1, 'a', 'x');
      await rollTally(database.db, DEF, 0);
      commit.fire();
      await late;
      expect(await counted({ userId: 2, tenantId: 1 })).toBe(2);
      expect(await tallied({ userId: 2, tenantId: 1 })).toBe(1);
    },
  );
});
