import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Database, defaultPoolSize, openDatabase, TRANSACTION_POOL_SIZE } from './client.ts';

/** Backends that served `n` concurrent statements, each held 50 ms so that they overlap. */
async function backendsFor(poolSize: number | undefined, n: number) {
  const database: Database = await openDatabase({ url: process.env.DATABASE_URL, poolSize });
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
  it('defaults to twice the cores: statements beyond it wait for a connection', async () => {
    expect(await backendsFor(undefined, defaultPoolSize() + 6)).toBe(defaultPoolSize());
  });

  it('takes DATABASE_POOL_SIZE as given', async () => {
    expect(await backendsFor(2, 8)).toBe(2);
  });
});

describe.runIf(process.env.DATABASE_URL)('PostgreSQL transactions draw from a pool of their own', () => {
  it('a statement runs while transactions hold every connection they have; they queue at TRANSACTION_POOL_SIZE', async () => {
    const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 1 });
    try {
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      const pids: number[] = [];
      const txs = Array.from({ length: TRANSACTION_POOL_SIZE + 3 }, () =>
        database.db.transaction(async (tx) => {
          const res = await tx.execute(sql`select pg_backend_pid() as pid`);
          pids.push((res as unknown as { rows: { pid: number }[] }).rows[0]?.pid as number);
          await held;
        }),
      );
      // Every transaction connection is taken and held: the rest wait, a plain statement does not.
      for (let i = 0; i < 100 && pids.length < TRANSACTION_POOL_SIZE; i++)
        await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      expect(pids.length).toBe(TRANSACTION_POOL_SIZE);
      const res = await database.db.execute(sql`select 1 as one`);
      expect((res as unknown as { rows: { one: number }[] }).rows[0]?.one).toBe(1);
      release();
      await Promise.all(txs);
      expect(pids.length).toBe(TRANSACTION_POOL_SIZE + 3);
      expect(new Set(pids).size).toBe(TRANSACTION_POOL_SIZE);
    } finally {
      await database.close();
    }
  });
});
