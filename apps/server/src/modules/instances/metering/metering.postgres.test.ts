import { floorToFen } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../platform/clock.ts';
import { signal } from '../../../test/signal.ts';
import { createTestDatabase } from '../../../test/test-app.ts';
import { users } from '../../auth/auth.tables.ts';
import { gpuSkus } from '../../hosts/catalog.tables.ts';
import { hosts, regions } from '../../hosts/hosts.tables.ts';
import { accounts } from '../../ledger/ledger.tables.ts';
import { findUnbalancedAccounts, postLedgerEntries } from '../../ledger/ledger.ts';
import { seedOnFirstStart } from '../../system/system.usecases.ts';
import { instances } from '../instances.tables.ts';
import { runMetering } from '../tasks/billing-tasks.ts';

// Issue 15: set-based metering batches from several runs at once (the replicas' schedulers)
// on real PostgreSQL: SKIP LOCKED hands each due row to one run, accounts shared by many
// batches are locked in user-id order (no deadlock), nothing is charged twice.
const N = 600;
const USERS = 40;
const T0 = new Date('2026-11-22T08:20:00Z');

describe.runIf(process.env.DATABASE_URL)('set-based metering on PostgreSQL, concurrent runs', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const clock = fixedClock(T0);
  let deps: Parameters<typeof runMetering>[0];
  let userIds: number[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedOnFirstStart(database, { demo: false });
    const { db } = database;
    const [region] = await db
      .insert(regions)
      .values({ name: '并发区', code: 'conc', sortOrder: 1 })
      .returning();
    const [host] = await db
      .insert(hosts)
      .values({ regionId: region?.id as number, name: 'conc-host', driver: 'simulated' })
      .returning();
    const [sku] = await db
      .insert(gpuSkus)
      .values({
        hostId: host?.id as number,
        gpuModel: 'RTX 4090',
        memoryGb: 24,
        cpuPerGpu: 8,
        systemDiskGb: 30,
        dataDiskGb: 50,
        hourlyPrice: 19_800,
      })
      .returning();
    const made = await db
      .insert(users)
      .values(
        Array.from({ length: USERS }, (_, k) => ({
          tenantId: 1,
          phone: `137${String(k).padStart(8, '0')}`,
          username: `c${k}`,
          passwordHash: 'x',
        })),
      )
      .returning({ id: users.id });
    userIds = made.map((u) => u.id);
    await db.insert(accounts).values(userIds.map((userId) => ({ userId, tenantId: 1 })));
    await db.transaction((tx) =>
      postLedgerEntries(
        tx,
        userIds.map((userId) => ({
          userId,
          kind: 'recharge' as const,
          amount: 10_000_000,
          idempotencyKey: `conc:open:${userId}`,
        })),
      ),
    );
    await db.insert(instances).values(
      Array.from({ length: N }, (_, k) => ({
        tenantId: 1,
        // Owners interleaved, so every batch of every run touches most accounts.
        userId: userIds[k % USERS] as number,
        hostId: host?.id as number,
        skuId: sku?.id as number,
        regionId: region?.id as number,
        name: `c${k}`,
        image: 'img',
        gpuModel: 'RTX 4090',
        gpuCount: 1,
        billingType: 'hourly' as const,
        hourlyRate: 19_800 + 37 * k,
        status: 'RUNNING' as const,
        rootPasswordEnc: 'x',
        runningSince: new Date(T0.getTime() + (k % 60) * 1_000),
      })),
    );
    deps = {
      db,
      clock,
      hostDrivers: {
        forHost: () => {
          throw new Error('no driver here');
        },
      },
      market: { invalidate() {} },
      discounts: { rulesFor: async () => [] },
      retentionDays: 15,
      log: console,
    } as never;
  });
  afterAll(() => database?.close());

  const expectedUpTo = (k: number, at: Date) =>
    floorToFen(
      Math.floor(
        ((19_800 + 37 * k) * Math.floor((at.getTime() - T0.getTime() - (k % 60) * 1_000) / 1000)) / 3600,
      ),
    );

  async function check(at: Date) {
    const { db } = database;
    const rows = (await db.execute(sql`
      select i.id, i.name, i.charged,
             (select coalesce(sum(-l.amount), 0) from ledger_entries l
               where l.reference_type = 'instance' and l.reference_id = i.id::text) as posted,
             (select count(*) from ledger_entries l
               where l.reference_type = 'instance' and l.reference_id = i.id::text) as postings,
             (select coalesce(sum(b.amount), 0) from billing_records b where b.instance_id = i.id) as billed
      from instances i where i.name like 'c%' order by i.id`)) as unknown as {
      rows: { id: string; name: string; charged: string; posted: string; postings: string; billed: string }[];
    };
    expect(rows.rows).toHaveLength(N);
    for (const r of rows.rows) {
      const k = Number(r.name.slice(1));
      expect(Number(r.charged)).toBe(expectedUpTo(k, at));
      expect(Number(r.posted)).toBe(Number(r.charged));
      expect(Number(r.billed)).toBe(Number(r.charged));
    }
    expect(await findUnbalancedAccounts(db)).toEqual([]);
    return rows.rows.reduce((n, r) => n + Number(r.postings), 0);
  }

  it('four runs at once in small batches: every instance charged once, Σ ledger = balances, lines = charges', async () => {
    clock.set(new Date(T0.getTime() + 47 * 60_000 + 500));
    const runs = await Promise.all([0, 1, 2, 3].map(() => runMetering(deps, { batch: 25 })));
    expect(runs.map((r) => r.failed)).toEqual([0, 0, 0, 0]);
    // Each due instance was locked and charged by exactly one run.
    expect(runs.reduce((n, r) => n + r.instances, 0)).toBe(N);
    const total = runs.reduce((n, r) => n + r.charged, 0);
    expect(total).toBe(
      Array.from({ length: N }, (_, k) => expectedUpTo(k, clock.now())).reduce((n, a) => n + a, 0),
    );
    expect(await check(clock.now())).toBe(N);
  });

  it('again later, across an hour, with the same time repeated: charges only the new span, once', async () => {
    clock.set(new Date(T0.getTime() + 101 * 60_000 + 250));
    const runs = await Promise.all([0, 1, 2].map(() => runMetering(deps, { batch: 40 })));
    expect(runs.reduce((n, r) => n + r.instances, 0)).toBe(N);
    const again = await Promise.all([runMetering(deps), runMetering(deps, { batch: 7 })]);
    expect(again.map((r) => r.charged)).toEqual([0, 0]);
    expect(await check(clock.now())).toBe(2 * N);
  });

  it('lanes charge their own owners at once: one held up by a locked account, the other commits meanwhile', async () => {
    clock.set(new Date(T0.getTime() + 130 * 60_000 + 100));
    const { db } = database;
    const held = userIds.find((u) => u % 2 === 0) as number;
    // Instances by lane (owner id modulo 2): done when charged up to now.
    const charged = async () => {
      const r = (await db.execute(sql`
        select i.name, i.charged, i.user_id from instances i where i.name like 'c%'`)) as unknown as {
        rows: { name: string; charged: string; user_id: number }[];
      };
      const done = (lane: number) =>
        r.rows
          .filter((x) => x.user_id % 2 === lane)
          .every((x) => Number(x.charged) === expectedUpTo(Number(x.name.slice(1)), clock.now()));
      return { even: done(0), odd: done(1) };
    };
    const { fired: gate, fire: release } = signal();
    const { fired: lockTaken, fire: locked } = signal();
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from accounts where user_id = ${held} for update`);
      locked();
      await gate;
    });
    await lockTaken;
    const run = runMetering(deps, { batch: 10_000, lanes: 2 });
    // The odd owners' lane commits while the even lane waits for the held account.
    let seen = await charged();
    for (let i = 0; i < 400 && !seen.odd; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await charged();
    }
    expect(seen).toEqual({ even: false, odd: true });
    release();
    await holder;
    const done = await run;
    expect(done.failed).toBe(0);
    expect(done.instances).toBe(N);
    expect(await check(clock.now())).toBe(3 * N);
  });
});
