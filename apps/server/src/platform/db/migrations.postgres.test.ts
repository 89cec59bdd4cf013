import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signal } from '../../test/signal.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import type { Database } from './client.ts';
import { migrationsFolder } from './migrations.test-helpers.ts';
import { migrateDatabase } from './migrations.ts';
import { rowsOf } from './rows.ts';

/** Upgrading a live deployment (scripts/with-postgres.sh): its other replicas keep writing meanwhile. */
describe.runIf(Boolean(process.env.DATABASE_URL))('an online index build on a live table', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(undefined, { migrate: false });
  });
  afterAll(() => database.close());

  it('lets writes through while it waits for a transaction that is writing the table', async () => {
    const { db } = database;
    const table = [
      'CREATE TABLE "lines" ("a" integer)',
      'INSERT INTO "lines" SELECT g FROM generate_series(1, 1000) g',
    ];
    await migrateDatabase(db, migrationsFolder([table]));
    // A replica's transaction (a metering tick, an order) is writing the table as the upgrade starts.
    const hold = signal();
    const inserted = signal();
    const writing = db.transaction(async (tx) => {
      await tx.execute(sql`insert into "lines" values (-1)`);
      inserted.fire();
      await hold.fired;
    });
    await inserted.fired;
    const upgrade = migrateDatabase(
      db,
      migrationsFolder([
        table,
        ['CREATE INDEX CONCURRENTLY IF NOT EXISTS "lines_a" ON "lines" USING btree ("a")'],
      ]),
    );
    // The build waits for that transaction (as a plain CREATE INDEX would, holding a lock that
    // queues every write behind it).
    const waiting = async () =>
      (
        await rowsOf(
          db,
          sql`select 1 from pg_stat_activity where query ilike 'create%index%lines_a%' and wait_event_type = 'Lock'`,
        )
      ).length > 0;
    for (let i = 0; i < 200 && !(await waiting()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await waiting()).toBe(true);
    // Another replica's write goes through meanwhile; queued behind a lock it would time out.
    const write = db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '3s'`);
      await tx.execute(sql`insert into "lines" values (-2)`);
    });
    await expect(write).resolves.toBeUndefined();
    hold.fire();
    await writing;
    await upgrade;
    const [index] = await rowsOf<{ valid: boolean }>(
      db,
      sql`select indisvalid as valid from pg_index where indexrelid = to_regclass('lines_a')`,
    );
    expect(index?.valid).toBe(true);
  });
});
