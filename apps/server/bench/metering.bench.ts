import { sql } from 'drizzle-orm';
import { fixedClock } from '../src/app/clock.ts';
import { createTestDatabase } from '../src/app/db/test-utils.ts';
import { createSecretBox } from '../src/app/secret-box.ts';
import { users } from '../src/modules/auth/auth.tables.ts';
import { accounts } from '../src/modules/billing/billing.tables.ts';
import { hosts, regions } from '../src/modules/hosts/hosts.tables.ts';
import { instances } from '../src/modules/instances/instances.tables.ts';
import { runMetering } from '../src/modules/instances/tasks/billing-tasks.ts';
import { gpuSkus } from '../src/modules/market/market.tables.ts';
import { seedOnFirstStart } from '../src/modules/system/system.usecases.ts';

const N = Number(process.env.BENCH_INSTANCES ?? 10_000);

/**
 * One metering run over N running pay-as-you-go instances (row locks, a ledger row and hourly
 * bill lines each, every account once: set-based since issue 15), next to a single set-based
 * UPDATE over the same rows: the floor of what any per-row charging could cost on this database.
 */
export async function benchMetering(): Promise<string[]> {
  const database = await createTestDatabase();
  await seedOnFirstStart(database, { demo: false });
  const { db } = database;
  const T0 = new Date('2026-11-22T08:00:00Z');
  const [region] = await db
    .insert(regions)
    .values({ name: '压测区', code: 'bench', sortOrder: 1 })
    .returning();
  const [host] = await db
    .insert(hosts)
    .values({ regionId: region?.id as number, name: 'bench-host', driver: 'simulated' })
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
  const box = createSecretBox('bench-secret-bench-secret-bench-secret');
  const sealed = box.seal('pw');
  const userCount = Math.ceil(N / 10);
  for (let off = 0; off < userCount; off += 1000) {
    const batch = Array.from({ length: Math.min(1000, userCount - off) }, (_, k) => ({
      tenantId: 1,
      phone: `138${String(off + k).padStart(8, '0')}`,
      username: `b${off + k}`,
      passwordHash: 'x',
    }));
    const made = await db.insert(users).values(batch).returning({ id: users.id });
    await db
      .insert(accounts)
      .values(made.map((u) => ({ userId: u.id, tenantId: 1, available: 1_000_000_000 })));
  }
  const userIds = (await db.select({ id: users.id }).from(users)).map((u) => u.id);
  for (let off = 0; off < N; off += 1000) {
    await db.insert(instances).values(
      Array.from({ length: Math.min(1000, N - off) }, (_, k) => ({
        tenantId: 1,
        userId: userIds[(off + k) % userIds.length] as number,
        hostId: host?.id as number,
        skuId: sku?.id as number,
        regionId: region?.id as number,
        name: `i${off + k}`,
        image: 'img',
        gpuModel: 'RTX 4090',
        gpuCount: 1,
        billingType: 'hourly' as const,
        hourlyRate: 19_800,
        status: 'RUNNING' as const,
        rootPasswordEnc: sealed,
        runningSince: T0,
      })),
    );
  }
  const clock = fixedClock(new Date(T0.getTime() + 60_000));
  const deps = {
    db,
    clock,
    hostDrivers: {
      forHost: () => {
        throw new Error('no driver in the bench');
      },
    },
    market: { invalidate() {} },
    discounts: { rulesFor: async () => [] },
    box,
    retentionDays: 15,
    log: console,
  };

  // CPU time of this process next to wall time: PGlite runs in it, so on a busy machine its CPU
  // ratio is the steadier figure (PostgreSQL works in its own processes: wall time only).
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(since);
    return (d.user + d.system) / 1000;
  };
  let t = performance.now();
  let cpu = process.cpuUsage();
  const result = await runMetering(deps as never);
  const meteringMs = performance.now() - t;
  const meteringCpu = cpuMs(cpu);
  if (result.instances !== N) throw new Error(`metered ${result.instances}, expected ${N}`);

  t = performance.now();
  cpu = process.cpuUsage();
  await db.execute(
    sql`update instances set charged = accrued_closed + floor(hourly_rate * 120 / 3600), updated_at = now() where billing_type = 'hourly' and status = 'RUNNING'`,
  );
  const updateMs = performance.now() - t;
  const updateCpu = cpuMs(cpu);

  t = performance.now();
  clock.advance(60_000);
  await db.execute(sql`update instances set charged = 0`); // let the next run find something due again
  const repeatNothing = await runMetering({ ...deps, clock: fixedClock(new Date(T0.getTime())) } as never);
  const idleMs = performance.now() - t;
  await database.close();
  const kind = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  return [
    `metering run over ${N} running instances (${kind}): ${Math.round(meteringMs)} ms (${(meteringMs / N).toFixed(2)} ms each, ${Math.round(N / (meteringMs / 1000))} instances/s)`,
    `single set-based UPDATE over the same rows: ${Math.round(updateMs)} ms — metering/UPDATE ratio ${(meteringMs / updateMs).toFixed(1)}×`,
    ...(database.kind === 'pglite'
      ? [
          `CPU time of this process (PGlite in it): metering ${Math.round(meteringCpu)} ms, UPDATE ${Math.round(updateCpu)} ms — ratio ${(meteringCpu / updateCpu).toFixed(1)}×`,
        ]
      : []),
    `run with nothing due (${repeatNothing.charged} charged): ${Math.round(idleMs)} ms`,
  ];
}
