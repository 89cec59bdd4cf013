import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.ts';
import { REPO_ROOT } from '../platform/paths.ts';

const ROOT = REPO_ROOT;
// `node --import tsx`, not the tsx CLI: the CLI runs the server in a child of its own, which a
// SIGKILL of the CLI would leave running.
const TSX_LOADER = path.join(ROOT, 'node_modules/tsx/dist/loader.mjs');

export const freePort = async () => {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as { port: number };
  s.close();
  return port;
};

/** The URL of the test's own PostgreSQL database (each test file gets a fresh one). */
export async function databaseUrlOf(db: Db) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('a server process needs DATABASE_URL');
  // node-postgres answers `execute` with { rows } (these helpers are PostgreSQL only).
  const current = (await db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${current.rows[0]?.name ?? ''}`;
  return dbUrl.toString();
}

/**
 * A real server process (apps/server/src/main.ts) on the test's PostgreSQL database, with its
 * tasks on and a short provisioning lease, so a restart takes over what a killed one held.
 */
export async function startServerProcess(
  dbUrl: string,
  port: number,
  env: Record<string, string> = {},
  /** Node flags before the script (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs: string[] = [],
) {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', pathToFileURL(TSX_LOADER).href, 'apps/server/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_SECRET: 'test-secret-test-secret-test-secret-0123456789',
        PAYMENT_PROVIDER: 'simulated',
        ADMIN_PASSWORD: 'process-test-admin',
        TASKS: 'on',
        RATE_LIMITS: 'off',
        // Figures are read right after the writes that change them.
        ADMIN_STATS_CACHE_S: '0',
        LOG_LEVEL: 'error',
        INSTANCE_PROVISION_LEASE_S: '2',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const killProcess = async (child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL') => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await once(child, 'exit');
};
