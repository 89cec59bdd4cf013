import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { systemClock } from '../src/app/clock.ts';
import { openDatabase } from '../src/app/db/client.ts';
import { testConfig } from '../src/app/db/test-utils.ts';
import { buildServer } from '../src/app/server.ts';
import { hostGpus, regions } from '../src/modules/hosts/hosts.tables.ts';
import { instances } from '../src/modules/instances/instances.tables.ts';
import { IMAGE, instanceTestApp } from '../src/modules/instances/instances.test-helpers.ts';

const CREATES = 100;
/** Simulated 8-GPU hosts added to the demo ones, so every create of the burst can succeed. */
const EXTRA_HOSTS = 8;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? 0;

/**
 * 100 concurrent 1-GPU creates on the simulated driver (demo hosts, every GPU for sale), spread
 * over the machines, sent to two replicas on PostgreSQL (one app on PGlite). Prints latency and
 * checks that no GPU went to two instances and every GPU held matches its instance.
 */
export async function benchCreates(): Promise<string[]> {
  const h = await instanceTestApp(systemClock);
  await h.t.db.update(hostGpus).set({ reservedReason: null });
  const apps = [h.t.app];
  let second: { close(): Promise<unknown> } | null = null;
  let secondDb: { close(): Promise<void> } | null = null;
  if (h.t.database.kind === 'postgres') {
    const current = (await h.t.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[];
    };
    const url = new URL(process.env.DATABASE_URL as string);
    url.pathname = `/${current.rows[0]?.name}`;
    const database = await openDatabase({ url: url.toString() });
    const app = await buildServer({
      config: testConfig({ RATE_LIMITS: 'off' }),
      database,
      clock: systemClock,
      webDist: '/nonexistent',
    });
    apps.push(app);
    second = app;
    secondDb = database;
  }
  // Enough GPUs for every create of the burst: the demo hosts plus simulated 8-GPU hosts added
  // through the admin API, as an operator would.
  const admin = await h.t.adminHeaders();
  const [region] = await h.t.db.select().from(regions).orderBy(regions.id).limit(1);
  for (let k = 0; k < EXTRA_HOSTS; k++) {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/admin/hosts',
      headers: admin,
      payload: {
        name: `bench-4090-${k}`,
        regionId: region?.id,
        driver: 'simulated',
        cpuModel: 'AMD EPYC 9654',
        cpuCores: 128,
        memoryGb: 1024,
        portRangeStart: 46_000 + k * 100,
        portRangeEnd: 46_099 + k * 100,
        settings: { latencyMs: 0, failureRate: 0, gpus: { model: 'RTX 4090', memoryGb: 24, count: 8 } },
        sku: { hourlyPrice: 1.98, cpuPerGpu: 16, memoryPerGpuGb: 120 },
      },
    });
    if (res.statusCode !== 200) throw new Error(`add host: ${res.body}`);
  }
  let machines = (await h.market()).map((i) => i.id);
  const capacity = (await h.t.db.select({ n: sql<number>`count(*)::int` }).from(hostGpus))[0]?.n ?? 0;
  const users = [];
  for (let i = 0; i < CREATES; i++) users.push(await h.funded(1000));

  // One at a time first: the cost of a create without contention (then released again).
  const alone: number[] = [];
  const usable: number[] = [];
  for (let i = 0; i < machines.length; i++) {
    const u = await h.funded(1000);
    const started = performance.now();
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/gpu/instance/create',
      headers: u.headers,
      payload: {
        machineId: machines[i % machines.length],
        instanceName: `alone-${i}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      },
    });
    // Machines whose GPUs the image does not suit (a non-NVIDIA demo host) answer 422: left out.
    if (res.statusCode === 422) continue;
    alone.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`create alone: ${res.body}`);
    usable.push(machines[i] as number);
    await h.t.app.deps.instances.jobs.drain();
    const id = res.json().data.id as number;
    const rel = await h.t.app.inject({
      method: 'POST',
      url: `/api/gpu/instance/release?instance_uuid=${id}`,
      headers: u.headers,
    });
    if (rel.statusCode !== 200) throw new Error(`release: ${rel.body}`);
  }
  await Promise.all(apps.map((a) => a.deps.instances.jobs.drain()));
  alone.sort((a, b) => a - b);
  // Each create of the burst gets a machine with a GPU left for it.
  const idle = new Map((await h.market()).map((i) => [i.id, i.gpuIdleNum]));
  const free = usable.reduce((n, id) => n + (idle.get(id) ?? 0), 0);
  if (free < CREATES) throw new Error(`${free} idle GPUs for ${CREATES} creates`);
  // Spread over the machines (round robin over the slots' machines), not host after host.
  machines = Array.from({ length: CREATES }, (_, i) => {
    const id = usable[i % usable.length] as number;
    const left = idle.get(id) ?? 0;
    if (left > 0) {
      idle.set(id, left - 1);
      return id;
    }
    const other = [...idle].find(([, n]) => n > 0)?.[0] as number;
    idle.set(other, (idle.get(other) ?? 1) - 1);
    return other;
  });

  // Where the time goes: what every other session of the database is doing, sampled every 20 ms
  // during the burst (waiting on a row lock, running, idle in a transaction, ...).
  const waits = new Map<string, number>();
  let sampling = h.t.database.kind === 'postgres';
  const sampler = (async () => {
    while (sampling) {
      const r = (await h.t.db.execute(sql`
        select coalesce(wait_event_type || ':' || wait_event, state) as what, count(*)::int as n
        from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'
        group by 1`)) as unknown as { rows: { what: string; n: number }[] };
      for (const row of r.rows) waits.set(row.what, (waits.get(row.what) ?? 0) + row.n);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  // BENCH_PROFILE=file.cpuprofile: a CPU profile of this process during the burst only.
  const profiler = process.env.BENCH_PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const ms: number[] = [];
  const statuses = new Map<number, number>();
  const t0 = performance.now();
  await Promise.all(
    users.map(async (u, i) => {
      const app = apps[i % apps.length] as typeof h.t.app;
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/gpu/instance/create',
        headers: u.headers,
        payload: {
          machineId: machines[i],
          instanceName: `bench-${i}`,
          image: IMAGE,
          gpuAmount: 1,
          ...(i % 2 ? { billingType: 'daily', duration: 1 } : { billingType: 'hourly' }),
        },
      });
      ms.push(performance.now() - started);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }),
  );
  const wall = performance.now() - t0;
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(profile));
    profiler.disconnect();
  }
  sampling = false;
  await sampler;
  const samples = [...waits.values()].reduce((a, b) => a + b, 0);
  await Promise.all(apps.map((a) => a.deps.instances.jobs.drain()));

  // No double allocation: each held GPU belongs to one live instance that records it.
  const held = await h.t.db.select().from(hostGpus).where(isNotNull(hostGpus.instanceId));
  const live = await h.t.db
    .select()
    .from(instances)
    .where(and(sql`${instances.status} not in ('RELEASED', 'FAILED')`));
  const problems: string[] = [];
  for (const i of live) {
    const mine = held.filter((g) => g.instanceId === i.id).map((g) => g.index);
    if (mine.sort().join() !== [...i.gpuIndices].sort().join())
      problems.push(`instance ${i.id} records ${i.gpuIndices} holds ${mine}`);
  }
  const created = statuses.get(200) ?? 0;
  if (held.length !== created) problems.push(`${held.length} GPUs held for ${created} creates`);
  const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  if (fiveXx > 0) problems.push(`${fiveXx} answers were 5xx`);
  const running = await h.t.db.select().from(instances).where(eq(instances.status, 'RUNNING'));

  ms.sort((a, b) => a - b);
  const kind = h.t.database.kind === 'pglite' ? 'PGlite, 1 app' : 'PostgreSQL, 2 replicas';
  const lines = [
    `one create at a time (${kind}): p50 ${Math.round(percentile(alone, 0.5))} ms, max ${Math.round(alone.at(-1) ?? 0)} ms`,
    `${CREATES} concurrent 1-GPU creates (${kind}, ${usable.length} machines, ${capacity} GPUs on all hosts): ` +
      `p50 ${Math.round(percentile(ms, 0.5))} ms, p99 ${Math.round(percentile(ms, 0.99))} ms, ` +
      `all answered in ${Math.round(wall)} ms; ` +
      `answers ${[...statuses].map(([s, c]) => `${s}×${c}`).join(' ')}; ${running.length} RUNNING after provisioning`,
    ...(samples > 0
      ? [
          `database sessions during the burst (share of samples): ${[...waits]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 6)
            .map(([w, n]) => `${w} ${Math.round((100 * n) / samples)}%`)
            .join(', ')}`,
        ]
      : []),
    problems.length === 0
      ? 'allocation check: no GPU in two instances, every held GPU matches its instance'
      : `ALLOCATION PROBLEMS: ${problems.slice(0, 5).join('; ')}`,
  ];
  await second?.close();
  await secondDb?.close();
  await h.t.close();
  if (problems.length > 0) throw new Error(lines.join('\n'));
  return lines;
}
