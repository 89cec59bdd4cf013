import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../platform/db/client.ts';
import { isAppError } from '../../platform/errors.ts';
import { signal } from '../../test/signal.ts';
import { createTestDatabase, schema } from '../../test/test-app.ts';
import { type Allocation, allocateOnHost, releaseOnHost, retakeGpus } from './allocation.ts';
import { hostGpus, hostPorts, hosts, regions } from './hosts.tables.ts';

let database: Database;
let regionId: number;
let seq = 0;

async function hostWithGpus(count: number, over: Partial<typeof hosts.$inferInsert> = {}) {
  seq += 1;
  const [host] = await database.db
    .insert(hosts)
    .values({
      regionId,
      name: `alloc-${seq}`,
      driver: 'simulated',
      portRangeStart: 30_000,
      portRangeEnd: 30_199,
      ...over,
    })
    .returning();
  const id = host?.id as number;
  await database.db.insert(hostGpus).values(
    Array.from({ length: count }, (_, index) => ({
      hostId: id,
      index,
      uuid: `GPU-${id}-${index}`,
      model: 'RTX 4090',
      memoryGb: 24,
    })),
  );
  return id;
}

const allocate = (hostId: number, instanceId: number, gpuCount: number, portCount?: number) =>
  database.db.transaction((tx) => allocateOnHost(tx, { hostId, instanceId, gpuCount, portCount }));

beforeAll(async () => {
  database = await createTestDatabase();
  const [region] = await database.db.insert(regions).values({ name: '测试区', code: 'test' }).returning();
  regionId = region?.id as number;
});
afterAll(() => database.close());

describe('allocateOnHost / releaseOnHost', () => {
  it('gives the lowest idle GPUs and free ports, creating the port pool on first use', async () => {
    const hostId = await hostWithGpus(8);
    const a = await allocate(hostId, 101, 2);
    expect(a.gpus.map((g) => g.index)).toEqual([0, 1]);
    expect(a.ports).toEqual([30_000, 30_001]);
    const pool = await database.db.select().from(hostPorts).where(eq(hostPorts.hostId, hostId));
    expect(pool).toHaveLength(200);
    const b = await allocate(hostId, 102, 3);
    expect(b.gpus.map((g) => g.index)).toEqual([2, 3, 4]);
    expect(b.ports).toEqual([30_002, 30_003]);
  });

  it('skips GPUs an admin reserved and refuses more than are idle, changing nothing', async () => {
    const hostId = await hostWithGpus(4);
    await database.db
      .update(hostGpus)
      .set({ reservedReason: '维护' })
      .where(and(eq(hostGpus.hostId, hostId), eq(hostGpus.index, 0)));
    const err = await allocate(hostId, 201, 4).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('hosts.insufficient_gpus');
    expect(isAppError(err) && err.status).toBe(409);
    expect((err as Error).message).toBe('该主机空闲 GPU 不足：需要 4 张，当前空闲 3 张');
    const held = await database.db
      .select()
      .from(hostGpus)
      .where(and(eq(hostGpus.hostId, hostId), isNotNull(hostGpus.instanceId)));
    expect(held).toHaveLength(0);
    expect((await allocate(hostId, 202, 3)).gpus.map((g) => g.index)).toEqual([1, 2, 3]);
  });

  it('allocates no GPU (power on without GPU) and refuses an exhausted port pool', async () => {
    const hostId = await hostWithGpus(1, { portRangeStart: 31_000, portRangeEnd: 31_002 });
    expect(await allocate(hostId, 301, 0)).toMatchObject({ gpus: [], ports: [31_000, 31_001] });
    const err = await allocate(hostId, 302, 1).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('hosts.insufficient_ports');
  });

  it('refuses hosts that are not active, and unknown hosts', async () => {
    const hostId = await hostWithGpus(2, { status: 'MAINTENANCE' });
    await expect(allocate(hostId, 401, 1)).rejects.toMatchObject({ code: 'hosts.not_active', status: 409 });
    await expect(allocate(999_999, 402, 1)).rejects.toMatchObject({ code: 'hosts.not_found', status: 404 });
  });

  it('releases GPUs and ports, or only the GPUs (pay-as-you-go power off keeps its port bindings)', async () => {
    const hostId = await hostWithGpus(2);
    await allocate(hostId, 501, 2);
    const gpusOnly = await database.db.transaction((tx) =>
      releaseOnHost(tx, { hostId, instanceId: 501, ports: false }),
    );
    expect(gpusOnly).toEqual({ gpus: [0, 1], ports: [] });
    const rest = await database.db.transaction((tx) => releaseOnHost(tx, { hostId, instanceId: 501 }));
    expect(rest).toEqual({ gpus: [], ports: [30_000, 30_001] });
    expect((await allocate(hostId, 502, 2)).ports).toEqual([30_000, 30_001]);
  });
});

describe('retakeGpus (a power on taking back the GPUs its container was made with)', () => {
  const retake = (hostId: number, instanceId: number, indices: number[]) =>
    database.db.transaction(async (tx) => {
      const r = await retakeGpus(tx, { hostId, instanceId, indices });
      // Short: the power on is refused and its transaction rolls back.
      if (!r.retaken) tx.rollback();
      return r;
    });
  const heldOn = async (hostId: number) =>
    (
      await database.db
        .select({ index: hostGpus.index, by: hostGpus.instanceId })
        .from(hostGpus)
        .where(and(eq(hostGpus.hostId, hostId), isNotNull(hostGpus.instanceId)))
    ).sort((a, b) => a.index - b.index);

  it('takes exactly its own indices, or answers how many others are idle and keeps none', async () => {
    const hostId = await hostWithGpus(4);
    expect(await retake(hostId, 601, [2, 3])).toEqual({ retaken: true });
    expect(await heldOn(hostId)).toEqual([
      { index: 2, by: 601 },
      { index: 3, by: 601 },
    ]);
    await allocate(hostId, 602, 1);
    // 0 went to 602; 1 is idle: one of its two is left, and one other.
    const short = await retake(hostId, 603, [0, 1]).catch((e: unknown) => e);
    expect(isAppError(short)).toBe(false);
    expect(await heldOn(hostId)).toEqual([
      { index: 0, by: 602 },
      { index: 2, by: 601 },
      { index: 3, by: 601 },
    ]);
  });

  it('answers the idle count when short', async () => {
    const hostId = await hostWithGpus(4);
    await allocate(hostId, 701, 1);
    const r = await database.db.transaction((tx) =>
      retakeGpus(tx, { hostId, instanceId: 702, indices: [0, 1] }),
    );
    // Index 1 was taken in that transaction (committed here: no caller rolled back): 2 and 3 idle.
    expect(r).toEqual({ retaken: false, idle: 3 });
    await expect(
      database.db.transaction((tx) => retakeGpus(tx, { hostId: 999_999, instanceId: 703, indices: [0] })),
    ).rejects.toMatchObject({ code: 'hosts.not_found' });
  });
});

/**
 * Its own pool of 20 connections on the test database, closed only once every connection has
 * really gone (pg's pool.end() resolves before its clients finish disconnecting).
 */
async function ownPool() {
  const result = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  const [row] = result.rows;
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${row?.name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 20 });
  return {
    db: drizzle({ client: pool, schema }) as unknown as Db,
    close: async () => {
      let left = pool.totalCount;
      const gone = new Promise<void>((resolve) => {
        if (left === 0) resolve();
        pool.on('remove', () => {
          left -= 1;
          if (left === 0) resolve();
        });
      });
      await pool.end();
      await gone;
    },
  };
}

describe('allocation on a host the planner statistics do not know yet (issue 26)', () => {
  it('takes what was asked, not every idle GPU and free port, after an ANALYZE that saw other hosts only', async () => {
    // Statistics that hold other hosts' GPUs and ports only: what an ANALYZE (the PGlite vacuum
    // task, PostgreSQL's autovacuum) leaves when a host is registered after it ran. The planner
    // then expects one row of the new host and may rescan the pick once per row it updates.
    const known = await hostWithGpus(8);
    await allocate(known, 201, 1);
    await database.db.execute(sql`vacuum (analyze) host_gpus, host_ports`);
    const hostId = await hostWithGpus(8);
    const a = await allocate(hostId, 202, 1);
    expect(a.gpus.map((g) => g.index)).toEqual([0]);
    expect(a.ports).toEqual([30_000, 30_001]);
    const gpus = await database.db
      .select()
      .from(hostGpus)
      .where(and(eq(hostGpus.hostId, hostId), isNotNull(hostGpus.instanceId)));
    expect(gpus.map((g) => g.index)).toEqual([0]);
    const ports = await database.db
      .select()
      .from(hostPorts)
      .where(and(eq(hostPorts.hostId, hostId), isNotNull(hostPorts.instanceId)));
    expect(ports.map((p) => p.port).sort()).toEqual([30_000, 30_001]);
  });
});

// PGlite runs one transaction at a time, so real lock contention needs PostgreSQL.
describe.runIf(process.env.DATABASE_URL)('allocation under contention (PostgreSQL)', () => {
  it('100 concurrent 1-GPU allocations on an 8-GPU host: exactly 8 succeed, nothing given twice', async () => {
    const hostId = await hostWithGpus(8);
    const own = await ownPool();
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        own.db.transaction((tx) => allocateOnHost(tx, { hostId, instanceId: 10_000 + i, gpuCount: 1 })),
      ),
    ).finally(() => own.close());
    const won = results
      .filter((r): r is PromiseFulfilledResult<Allocation> => r.status === 'fulfilled')
      .map((r) => r.value);
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(8);
    for (const r of lost) expect(r.reason).toMatchObject({ code: 'hosts.insufficient_gpus' });
    const gpuIds = won.flatMap((a) => a.gpus.map((g) => g.index));
    expect(new Set(gpuIds).size).toBe(8);
    const ports = won.flatMap((a) => a.ports);
    expect(new Set(ports).size).toBe(16);

    const gpuRows = await database.db.select().from(hostGpus).where(eq(hostGpus.hostId, hostId));
    expect(new Set(gpuRows.map((g) => g.instanceId)).size).toBe(8);
    expect(gpuRows.map((g) => g.instanceId).sort()).toEqual(won.map((a) => a.instanceId).sort());
    const portRows = await database.db
      .select()
      .from(hostPorts)
      .where(and(eq(hostPorts.hostId, hostId), isNotNull(hostPorts.instanceId)));
    expect(portRows).toHaveLength(16);
  });

  it('a power on short of its own GPUs locks no other: a create meanwhile gets the idle one', async () => {
    // The instance's GPU 0 went to someone else; GPU 1 is the host's last idle one.
    const hostId = await hostWithGpus(2);
    await allocate(hostId, 801, 1);
    const own = await ownPool();
    try {
      for (const [take, wins] of [
        ['retake', true],
        ['prefer', false],
      ] as const) {
        const { fired: held, fire: proceed } = signal();
        const { fired: tookTurn, fire: taken } = signal();
        // The power on's transaction stays open (as while it writes its rows) until the create ran.
        const powerOn = own.db
          .transaction(async (tx) => {
            if (take === 'retake') await retakeGpus(tx, { hostId, instanceId: 802, indices: [0] });
            else
              await allocateOnHost(tx, {
                hostId,
                instanceId: 802,
                gpuCount: 1,
                portCount: 0,
                preferIndices: [0],
              });
            taken();
            await held;
            tx.rollback();
          })
          .catch(() => undefined);
        await tookTurn;
        const create = await own.db
          .transaction((tx) => allocateOnHost(tx, { hostId, instanceId: 803, gpuCount: 1, portCount: 0 }))
          .then(
            (a) => a.gpus.map((g) => g.index),
            (e: unknown) => (isAppError(e) ? e.code : e),
          );
        proceed();
        await powerOn;
        // The old way (take any, prefer its own) held GPU 1 and refused the create: the control.
        expect(create).toEqual(wins ? [1] : 'hosts.insufficient_gpus');
        await database.db.transaction((tx) => releaseOnHost(tx, { hostId, instanceId: 803 }));
      }
    } finally {
      await own.close();
    }
  });
});
