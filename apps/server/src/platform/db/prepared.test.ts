import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app.ts';
import type { Database } from './client.ts';
import { appMeta } from './meta.tables.ts';
import { preparedStatement } from './prepared.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

let builds = 0;
const put = preparedStatement('test_prepared_put', (db) => {
  builds++;
  return db
    .insert(appMeta)
    .values({
      key: sql.placeholder('key'),
      value: sql.placeholder('value'),
      createdAt: sql.placeholder('at'),
    })
    .returning();
});
const get = preparedStatement('test_prepared_get', (db) =>
  db
    .select()
    .from(appMeta)
    .where(eq(appMeta.key, sql.placeholder('key'))),
);

describe('preparedStatement', () => {
  it('builds once and runs with each call’s values, mapping rows as the builder would', async () => {
    const at = new Date('2026-11-25T01:02:03.000Z');
    const [a] = await put(database.db, { key: 'prepared:a', value: { n: 1 }, at });
    const [b] = await put(database.db, { key: 'prepared:b', value: { n: 2 }, at });
    expect(builds).toBe(1);
    expect(a).toEqual({ key: 'prepared:a', value: { n: 1 }, createdAt: at });
    expect(b?.value).toEqual({ n: 2 });
    expect(await get(database.db, { key: 'prepared:b' })).toEqual([b]);
    expect(await get(database.db, { key: 'prepared:none' })).toEqual([]);
  });

  it("runs on the caller's transaction: rolled back with it, committed with it", async () => {
    const at = new Date();
    await expect(
      database.db.transaction(async (tx) => {
        await put(tx, { key: 'prepared:rolled-back', value: 1, at });
        // Seen inside the transaction that wrote it.
        expect(await get(tx, { key: 'prepared:rolled-back' })).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await get(database.db, { key: 'prepared:rolled-back' })).toEqual([]);
    await database.db.transaction((tx) => put(tx, { key: 'prepared:kept', value: 2, at }));
    expect(await get(database.db, { key: 'prepared:kept' })).toHaveLength(1);
  });
});
