import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { type MigrationConfig, type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** client.ts's Db, named here without importing it (client.ts calls this module). */
type Db = PgDatabase<PgQueryResultHKT>;
const rowsOf = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * An index built or dropped without blocking the table's writes (issue 33: a plain CREATE INDEX
 * on 9 million bill lines held off metering and orders for the whole build). PostgreSQL refuses
 * CONCURRENTLY inside a transaction, and drizzle runs every pending migration in one.
 */
const ONLINE = /^\s*(?:create\s+(?:unique\s+)?index|drop\s+index)\s+concurrently\b/i;
/** An online statement names its index after IF [NOT] EXISTS, so running it again is harmless. */
const ONLINE_NAME = /^\s*(create|drop)\b[^"]*?\bconcurrently\s+if\s+(?:not\s+)?exists\s+"([^"]+)"/i;

/** The drizzle internals its own migrators use: `db.dialect.migrate(migrations, db.session, config)`. */
interface Migrator {
  dialect: { migrate(m: MigrationMeta[], session: unknown, config: MigrationConfig): Promise<void> };
  session: unknown;
}

const statementsOf = (m: MigrationMeta) => m.sql.filter((s) => s.trim() !== '');

/**
 * Whether a migration is online: all of its statements CONCURRENTLY ones (each IF [NOT] EXISTS),
 * or none. Mixed, the online part could not run with the rest; a start refuses it rather than
 * guess an order.
 */
export function isOnlineMigration(m: MigrationMeta, tag: string): boolean {
  const statements = statementsOf(m);
  const online = statements.filter((s) => ONLINE.test(s));
  if (online.length === 0) return false;
  if (online.length < statements.length)
    throw new Error(`migration ${tag}: CONCURRENTLY statements go in a migration of their own`);
  for (const s of online)
    if (!ONLINE_NAME.test(s)) throw new Error(`migration ${tag}: write "${s.trim()}" with IF [NOT] EXISTS`);
  return true;
}

/**
 * One online statement, outside any transaction. A build that was cut short (a crash, a failed
 * unique build) leaves its index INVALID, which IF NOT EXISTS would keep for good: it is dropped
 * and built again.
 */
async function runOnline(db: Db, statement: string) {
  const [, verb, name] = ONLINE_NAME.exec(statement) as unknown as [string, string, string];
  if (verb.toLowerCase() === 'create') {
    const [index] = await rowsOf<{ valid: boolean }>(
      db,
      sql`select indisvalid as valid from pg_index where indexrelid = to_regclass(${`"${name}"`})`,
    );
    if (index && !index.valid) await db.execute(sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`));
  }
  await db.execute(sql.raw(statement));
}

/** The newest recorded migration's timestamp, or null before the first (no table yet). */
async function lastApplied(db: Db): Promise<number | null> {
  const [table] = await rowsOf<{ t: string | null }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`,
  );
  if (!table?.t) return null;
  const [last] = await rowsOf<{ at: string | null }>(
    db,
    sql`select max(created_at)::text as at from drizzle.__drizzle_migrations`,
  );
  return last?.at == null ? null : Number(last.at);
}

/**
 * Applies the pending migrations of `folder` as drizzle's migrator does (one transaction for a run
 * of ordinary ones, recorded in drizzle.__drizzle_migrations), except that an online migration
 * runs its statements one by one outside a transaction, then is recorded. Until it is recorded it
 * is pending, so a start that died halfway through it runs it again.
 */
export async function migrateDatabase(db: Db, folder: string): Promise<void> {
  const config: MigrationConfig = { migrationsFolder: folder };
  const all = readMigrationFiles(config);
  const { dialect, session } = db as unknown as Migrator;
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  // Every migration is checked before any runs: a bad one later in the list stops the start clean.
  const online = all.map((m, k) => isOnlineMigration(m, journal.entries[k]?.tag ?? `#${k}`));
  // What is applied already, read once: a start with nothing pending makes no extra round trips.
  const applied = await lastApplied(db);
  for (let k = 0; k < all.length; k++) {
    const m = all[k] as MigrationMeta;
    if (!online[k] || (applied !== null && applied >= m.folderMillis)) continue;
    await dialect.migrate(all.slice(0, k), session, config);
    for (const statement of statementsOf(m)) await runOnline(db, statement);
    await dialect.migrate([...all.slice(0, k), { ...m, sql: [] }], session, config);
  }
  await dialect.migrate(all, session, config);
}
