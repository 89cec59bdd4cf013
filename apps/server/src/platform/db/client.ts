import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { SERVER_ROOT } from '../paths.ts';
import { migrateDatabase } from './migrations.ts';

/**
 * The one database type every repository takes: PGlite and PostgreSQL look the same to it. It
 * carries no schema: repositories name their tables, so the database plumbing knows no feature.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /**
   * Runs `fn` (migrations, first-start data) while holding the start-up lock: on PostgreSQL a
   * session advisory lock on a dedicated connection, so replicas starting together on one
   * database take turns instead of racing through `CREATE TYPE`/`CREATE TABLE`. PGlite is one
   * process's own files: `fn` just runs.
   */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * Tells every process on this database (PostgreSQL NOTIFY, sent at once: call it after commit).
   * PGlite is one process's own files: there is nobody else to tell.
   */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Hears `channel` on a connection of its own (PostgreSQL LISTEN), reconnecting when it drops.
   * `onGap` runs whenever messages may have been missed (connection lost or re-established).
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onGap: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The advisory lock key of start-up work; any fixed bigint no other lock of ours uses. */
export const STARTUP_LOCK_KEY = 7_340_021_881_001n;
/** How often a start waiting for another's migrations tries the lock again. */
const STARTUP_LOCK_RETRY_MS = 200;

export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'drizzle');

/**
 * A process's PostgreSQL connections when DATABASE_POOL_SIZE is not set (docs/decisions.md,
 * "Connection pool": fewer helped light lists on two shared cores, hurt creates and heavier pages).
 */
export const DEFAULT_POOL_SIZE = 10;

/** PGlite in `dataDir` (or in memory when dataDir is null), PostgreSQL when a URL is given. */
export async function openDatabase(opts: {
  url?: string;
  dataDir?: string | null;
  poolSize?: number;
}): Promise<Database> {
  if (opts.url) {
    // No JIT: it compiled every mid-sized query (the hosts' GPU counts: 27 ms, 5 ms without it)
    // and gains nothing on the few large aggregates, which are cached (issue 33).
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? DEFAULT_POOL_SIZE,
      options: '-c jit=off',
    });
    // An idle connection that dies (server restart, failover, a dropped test database) is
    // replaced by the pool; without a listener its error would end the process.
    pool.on('error', (err: Error & { code?: string }) => {
      if (err.code !== '57P01') console.warn(`PostgreSQL idle connection lost: ${err.message}`);
    });
    const db = drizzlePg({ client: pool }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migrateDatabase(db, MIGRATIONS_DIR),
      withStartupLock: async (fn) => {
        // Its own connection, not one of the pool's: a session lock must stay on the session
        // that took it, and the pool is busy with what `fn` runs meanwhile.
        const lockClient = new pg.Client({ connectionString: opts.url });
        await lockClient.connect();
        try {
          // Tried in turns, not waited for in pg_advisory_lock: a statement waiting there holds a
          // snapshot, and an online index build in the holder's migrations waits for every older
          // snapshot to end. The two would wait on each other for good.
          const key = STARTUP_LOCK_KEY.toString();
          while (!(await lockClient.query('select pg_try_advisory_lock($1) as ok', [key])).rows[0]?.ok)
            await new Promise((resolve) => setTimeout(resolve, STARTUP_LOCK_RETRY_MS));
          try {
            return await fn();
          } finally {
            await lockClient.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY.toString()]);
          }
        } finally {
          // Ending the session releases the lock as well, should the unlock itself have failed.
          await lockClient.end();
        }
      },
      ping: async () => {
        await pool.query('select 1');
      },
      notify: async (channel, payload) => {
        await pool.query('select pg_notify($1, $2)', [channel, payload]);
      },
      listen: (channel, onMessage, onGap) => listenPg(opts.url as string, channel, onMessage, onGap),
      close: () => pool.end(),
    };
  }
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  // pg_trgm: the back office's substring search (migration 0022) needs it on PGlite too.
  const client = new PGlite({ dataDir: dir, extensions: { pg_trgm } });
  const db = drizzlePglite({ client }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migrateDatabase(db, MIGRATIONS_DIR),
    withStartupLock: (fn) => fn(),
    ping: async () => {
      await client.query('select 1');
    },
    notify: async () => {},
    listen: async () => async () => {},
    close: () => client.close(),
  };
}

/** LISTEN on a dedicated connection; a lost connection is a gap, then retried every second. */
async function listenPg(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onGap: () => void,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (m) => {
      if (m.channel === channel) onMessage(m.payload ?? '');
    });
    const lost = () => {
      if (client !== c) return;
      client = null;
      onGap();
      if (!stopped) retry = setTimeout(() => void connect().catch(lostConnect), 1000);
    };
    c.on('error', lost);
    c.on('end', lost);
    await c.connect();
    await c.query(`listen ${channel}`);
    if (stopped) {
      await c.end();
      return;
    }
    client = c;
    // Anything sent while we were not listening is lost: whoever caches must start afresh.
    onGap();
  };
  const lostConnect = (err: unknown) => {
    console.warn(`PostgreSQL LISTEN ${channel}: ${err instanceof Error ? err.message : String(err)}`);
    if (!stopped) retry = setTimeout(() => void connect().catch(lostConnect), 1000);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  };
}
