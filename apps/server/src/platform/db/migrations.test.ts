import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app.ts';
import { type Database, MIGRATIONS_DIR } from './client.ts';
import { migrationsFolder } from './migrations.test-helpers.ts';
import { isOnlineMigration, migrateDatabase } from './migrations.ts';
import { rowsOf } from './rows.ts';

/** The index's validity (null: no such index). */
async function indexValid(db: Database['db'], name: string): Promise<boolean | null> {
  const [row] = await rowsOf<{ valid: boolean }>(
    db,
    sql`select indisvalid as valid from pg_index where indexrelid = to_regclass(${name})`,
  );
  return row ? row.valid : null;
}
const recorded = async (db: Database['db']) =>
  (await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n;

describe('migrations with online (CONCURRENTLY) index builds', () => {
  let database: Database | null = null;
  const empty = async () => {
    database = await createTestDatabase(undefined, { migrate: false });
    return database.db;
  };
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  it('builds an online index outside the transaction, in order, and records it once', async () => {
    const db = await empty();
    const folder = migrationsFolder([
      ['CREATE TABLE "t" ("a" integer)', 'INSERT INTO "t" SELECT g FROM generate_series(1, 100) g'],
      ['CREATE INDEX CONCURRENTLY IF NOT EXISTS "t_a" ON "t" USING btree ("a")'],
      ['CREATE TABLE "after" ("b" integer)', 'CREATE INDEX "after_b" ON "after" ("b")'],
    ]);
    await migrateDatabase(db, folder);
    expect(await indexValid(db, 't_a')).toBe(true);
    expect(await indexValid(db, 'after_b')).toBe(true);
    expect(await recorded(db)).toBe(3);
    // A second start finds nothing pending.
    await migrateDatabase(db, folder);
    expect(await recorded(db)).toBe(3);
  });

  it('rebuilds an index whose build was cut short, on the next start', async () => {
    const db = await empty();
    const folder = migrationsFolder([
      ['CREATE TABLE "u" ("a" integer)', 'INSERT INTO "u" VALUES (1), (1)'],
      ['CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "u_a" ON "u" USING btree ("a")'],
    ]);
    // The duplicate fails the build halfway: PostgreSQL leaves the index behind, INVALID.
    await expect(migrateDatabase(db, folder)).rejects.toThrow();
    expect(await indexValid(db, 'u_a')).toBe(false);
    expect(await recorded(db)).toBe(1);
    await db.execute(sql`delete from "u" where ctid = (select min(ctid) from "u")`);
    await migrateDatabase(db, folder);
    expect(await indexValid(db, 'u_a')).toBe(true);
    expect(await recorded(db)).toBe(2);
    await expect(db.execute(sql`insert into "u" values (1)`)).rejects.toThrow();
  });

  it('refuses a migration that mixes online statements with others, and applies no migration', async () => {
    const db = await empty();
    const folder = migrationsFolder([
      ['CREATE TABLE "v" ("a" integer)'],
      ['CREATE INDEX CONCURRENTLY IF NOT EXISTS "v_a" ON "v" ("a")'],
      ['CREATE TABLE "w" ("a" integer)', 'CREATE INDEX CONCURRENTLY IF NOT EXISTS "w_a" ON "w" ("a")'],
    ]);
    await expect(migrateDatabase(db, folder)).rejects.toThrow(
      /0002_step: CONCURRENTLY statements go in a migration of their own/,
    );
    expect(await rowsOf(db, sql`select 1 from pg_class where relname in ('v', 'w', 'v_a', 'w_a')`)).toEqual(
      [],
    );
  });

  it('refuses an online statement that could not run twice', async () => {
    const db = await empty();
    const folder = migrationsFolder([
      ['CREATE TABLE "v" ("a" integer)'],
      ['CREATE INDEX CONCURRENTLY "v_a" ON "v" ("a")'],
    ]);
    await expect(migrateDatabase(db, folder)).rejects.toThrow(/0001_step: write .* with IF \[NOT\] EXISTS/);
  });
});

/**
 * The tables that grow into millions of rows (the scale generator's sizes): an index added to
 * one of them later builds online, or upgrading a live deployment stops its writes for the build.
 */
const LARGE_TABLES = [
  'audit_log',
  'billing_records',
  'instance_events',
  'instance_sample_rollups',
  'instance_samples',
  'ledger_entries',
  'recharge_orders',
  'vouchers',
];
/** Migrations up to here ran before online builds existed; on a new deployment their tables are empty. */
const LAST_BEFORE_ONLINE = 25;

describe("the app's own migrations", () => {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });

  it('keep online statements in migrations of their own', () => {
    const online = migrations.filter((m, i) => isOnlineMigration(m, journal.entries[i]?.tag as string));
    expect(online.length).toBeGreaterThan(0);
  });

  it('build every new index on a large table online', () => {
    const plain = migrations.flatMap((m, i) =>
      i <= LAST_BEFORE_ONLINE
        ? []
        : m.sql
            .filter((s) => /create\s+(unique\s+)?index\s+(?!concurrently)/i.test(s))
            .filter((s) => LARGE_TABLES.some((t) => new RegExp(`\\bON\\s+"?${t}"?\\s`, 'i').test(s)))
            .map((s) => `${journal.entries[i]?.tag}: ${s.trim()}`),
    );
    expect(plain).toEqual([]);
  });
});
