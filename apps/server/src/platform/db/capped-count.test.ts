import { TOTAL_CAP } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app.ts';
import { cappedTableCount, cappedTotal } from './capped-count.ts';
import type { Database } from './client.ts';
import { rowsOf } from './rows.ts';

describe('the capped count of a whole table', () => {
  let database: Database;
  const count = async () =>
    Number(
      (await rowsOf<{ n: number }>(database.db, sql`select ${cappedTableCount('capped_rows')} as n`))[0]?.n,
    );
  beforeAll(async () => {
    database = await createTestDatabase(undefined, { migrate: false });
    await database.db.execute(sql`create table capped_rows (a integer)`);
    await database.db.execute(sql`insert into capped_rows select g from generate_series(1, 7) g`);
  });
  afterAll(() => database.close());

  it('counts the rows while the planner knows of fewer than twice the cap', async () => {
    expect(await count()).toBe(7);
    await database.db.execute(sql`analyze capped_rows`);
    expect(await count()).toBe(7);
  });

  it("answers over the cap from the planner's count once it is twice the cap, without counting", async () => {
    // As ANALYZE leaves it for a large table; the 7 rows show that no count ran.
    await database.db.execute(
      sql`update pg_class set reltuples = ${2 * (TOTAL_CAP + 1)} where oid = 'capped_rows'::regclass`,
    );
    expect(await count()).toBe(TOTAL_CAP + 1);
    expect(cappedTotal(await count())).toEqual({ total: TOTAL_CAP, totalCapped: true });
    await database.db.execute(sql`analyze capped_rows`);
    expect(await count()).toBe(7);
  });
});
