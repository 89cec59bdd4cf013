import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SIZE, openDatabase } from './client.ts';

/** Backends that served `n` concurrent statements, each held 50 ms so that they overlap. */
async function backendsFor(poolSize: number | undefined, n: number) {
  const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize });
  try {
    const pids = await Promise.all(
      Array.from({ length: n }, async () => {
        const res = await database.db.execute(sql`select pg_backend_pid() as pid from pg_sleep(0.05)`);
        return (res as unknown as { rows: { pid: number }[] }).rows[0]?.pid;
      }),
    );
    return new Set(pids).size;
  } finally {
    await database.close();
  }
}

describe.runIf(process.env.DATABASE_URL)('PostgreSQL connection pool size', () => {
  it('keeps DEFAULT_POOL_SIZE connections: statements beyond it wait for one', async () => {
    expect(await backendsFor(undefined, DEFAULT_POOL_SIZE + 6)).toBe(DEFAULT_POOL_SIZE);
  });

  it('takes DATABASE_POOL_SIZE as given', async () => {
    expect(await backendsFor(2, 8)).toBe(2);
  });
});
