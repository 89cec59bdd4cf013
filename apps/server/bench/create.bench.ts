import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { and, eq, isNotNull, like, sql } from 'drizzle-orm';
import { gpuSkus } from '../src/modules/hosts/catalog.tables.ts';
import { hostGpus, hosts, regions } from '../src/modules/hosts/hosts.tables.ts';
import { instances } from '../src/modules/instances/instances.tables.ts';
import { systemClock } from '../src/platform/clock.ts';
import { IMAGE, instanceTestApp } from '../src/test/instances.ts';
import { agent, idleGpus, machineCpuMs, post, postgresCpuMs, startReplicas } from './replicas.ts';

const CREATES = 100;
/** Issue 33's goal for the burst: p99 on PostgreSQL, two replicas, a 1,000-host fleet. */
const GOAL_P99_MS = 150;
const GOAL_FLEET = 1000;
/** Warm-up bursts of creates before the measured one (each released again). */
const WARM_BURST = CREATES;
const WARM_ROUNDS = 5;
/**
 * Hosts in the fleet (issue 33): simulated 8-GPU hosts are added to the demo ones up to this
 * number, as a platform's size; BENCH_HOSTS lowers it for a quick run. The 1,000-host goal is read
 * on PostgreSQL; PGlite registers hosts one transaction at a time (30 took 2.4 min), so there the
 * default is a small fleet.
 */
const fleetSize = (onPostgres: boolean) => Number(process.env.BENCH_HOSTS ?? (onPostgres ? 1000 : 30));
/** Hosts registered at a time through the admin API while building the fleet. */
const REGISTER_CONCURRENCY = 8;
/** Machines the one-at-a-time creates go through (the demo ones and the first bench hosts). */
const ALONE_MACHINES = 16;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? 0;

/**
 * 100 concurrent 1-GPU creates on the simulated driver (demo hosts, every GPU for sale), spread
 * over the machines. On PostgreSQL they go over HTTP to two replicas, each its own server
 * process (apps/server/src/main.ts) as deployed, alternately; on PGlite to the one embedded
 * app. Prints latency and checks that no GPU went to two instances and every GPU held matches
 * its instance.
 */
export async function benchCreates(): Promise<string[]> {
  const h = await instanceTestApp(systemClock);
  await h.t.db.update(hostGpus).set({ reservedReason: null });
  const onPostgres = h.t.database.kind === 'postgres';
  // The fleet: the demo hosts plus simulated 8-GPU hosts added through the admin API, as an
  // operator would, until it has fleetSize hosts.
  const admin = await h.t.adminHeaders();
  const [region] = await h.t.db.select().from(regions).orderBy(regions.id).limit(1);
  const demoHosts = (await h.t.db.select({ n: sql<number>`count(*)::int` }).from(hosts))[0]?.n ?? 0;
  const extra = Math.max(0, fleetSize(onPostgres) - demoHosts);
  const register = async (k: number) => {
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
        portRangeStart: 46_000,
        portRangeEnd: 46_099,
        settings: { latencyMs: 0, failureRate: 0, gpus: { model: 'RTX 4090', memoryGb: 24, count: 8 } },
        sku: { hourlyPrice: 1.98, cpuPerGpu: 16, memoryPerGpuGb: 120 },
      },
    });
    if (res.statusCode !== 200) throw new Error(`add host: ${res.body}`);
  };
  for (let k = 0; k < extra; k += REGISTER_CONCURRENCY)
    await Promise.all(
      Array.from({ length: Math.min(REGISTER_CONCURRENCY, extra - k) }, (_, j) => register(k + j)),
    );
  // The statistics of the grown fleet, as autovacuum gathers them within a minute of such growth:
  // a deployment reaches 1,000 hosts over months and runs analyzed. Planned on the demo fleet's,
  // a create's market row read every host for its GPUs' states (a sequential scan, fine at seven).
  await h.t.db.execute(sql`analyze`);
  const fleet = (await h.t.db.select({ n: sql<number>`count(*)::int` }).from(hosts))[0]?.n ?? 0;
  // The bench hosts' machines, in host order: the burst spreads over them.
  const benchMachines = (
    await h.t.db
      .select({ id: gpuSkus.id })
      .from(gpuSkus)
      .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
      .where(like(hosts.name, 'bench-4090-%'))
      .orderBy(hosts.id)
  ).map((r) => r.id);
  let machines = [...(await h.market()).map((i) => i.id), ...benchMachines]
    .filter((id, k, all) => all.indexOf(id) === k)
    .slice(0, ALONE_MACHINES);
  const capacity = (await h.t.db.select({ n: sql<number>`count(*)::int` }).from(hostGpus))[0]?.n ?? 0;
  const users = [];
  for (let i = 0; i < CREATES; i++) users.push(await h.funded(1000));

  // The replicas start after the set-up (no market or tenant change reaches them mid-burst).
  const replicas = onPostgres ? await startReplicas(h.t.db, 2) : null;
  /** A request to the app (PGlite) or to replica k mod n (PostgreSQL): status and JSON body. */
  const send = async (k: number, url: string, headers: Record<string, string>, payload?: object) => {
    if (!replicas) {
      const res = await h.t.app.inject({ method: 'POST', url, headers, payload });
      return { status: res.statusCode, body: res.body };
    }
    return post(`${replicas.urls[k % replicas.urls.length]}${url}`, headers, payload);
  };
  const settled = () => (replicas ? replicas.settled() : h.t.app.deps.modules.instances.jobs.drain());

  // One at a time first: the cost of a create without contention (then released again). Twice
  // over: the first round warms the replicas (a process's first requests compile its code).
  const alone: number[] = [];
  let usable: number[] = [];
  for (let round = 0; round < 2; round++) {
    alone.length = 0;
    usable = [];
    for (let i = 0; i < machines.length; i++) {
      const u = await h.funded(1000);
      const started = performance.now();
      const res = await send(i, '/api/gpu/instance/create', u.headers, {
        machineId: machines[i],
        instanceName: `alone-${round}-${i}`,
        image: IMAGE,
        gpuAmount: 1,
        billingType: 'hourly',
      });
      // Machines whose GPUs the image does not suit (a non-NVIDIA demo host) answer 422: left out.
      if (res.status === 422) continue;
      alone.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`create alone: ${res.body}`);
      usable.push(machines[i] as number);
      await settled();
      const id = JSON.parse(res.body).data.id as number;
      const rel = await send(i, `/api/gpu/instance/release?instance_uuid=${id}`, u.headers);
      if (rel.status !== 200) throw new Error(`release: ${rel.body}`);
    }
    await settled();
  }
  // The burst goes over the whole fleet's bench machines (those the alone rounds checked first),
  // one create per machine as far as they go: creates land all over a large fleet.
  usable = [...usable, ...benchMachines.filter((id) => !usable.includes(id))].slice(
    0,
    Math.max(CREATES, usable.length),
  );
  // And bursts like the measured one, released again, until the replicas' hot paths are compiled
  // (a server that has run for a while; the first few hundred calls of a function run slower).
  for (let round = 0; round < WARM_ROUNDS; round++) {
    const warm = await Promise.all(
      Array.from({ length: WARM_BURST }, async (_, k) => {
        const u = await h.funded(1000);
        const res = await send(k, '/api/gpu/instance/create', u.headers, {
          machineId: usable[k % usable.length],
          instanceName: `warm-${round}-${k}`,
          image: IMAGE,
          gpuAmount: 1,
          ...(k % 2 ? { billingType: 'daily', duration: 1 } : { billingType: 'hourly' }),
        });
        return { k, u, res };
      }),
    );
    await settled();
    await Promise.all(
      warm
        .filter(({ res }) => res.status === 200)
        .map(({ k, u, res }) =>
          send(k, `/api/gpu/instance/release?instance_uuid=${JSON.parse(res.body).data.id}`, u.headers),
        ),
    );
    await settled();
  }
  alone.sort((a, b) => a - b);
  // Each create of the burst gets a machine with a GPU left for it.
  const idle = await idleGpus(h.t.db, usable);
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
  let sampling = onPostgres;
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
  // CPU time the replicas spend on the burst: steadier than latency on a busy machine.
  const cpu0 = replicas?.cpuMs() ?? 0;
  const machine0 = machineCpuMs();
  const pg0 = postgresCpuMs();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    users.map(async (u, i) => {
      const payload = {
        machineId: machines[i],
        instanceName: `bench-${i}`,
        image: IMAGE,
        gpuAmount: 1,
        ...(i % 2 ? { billingType: 'daily', duration: 1 } : { billingType: 'hourly' }),
      };
      const started = performance.now();
      const { status } = await send(i, '/api/gpu/instance/create', u.headers, payload);
      ms.push(performance.now() - started);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }),
  );
  const wall = performance.now() - t0;
  const burstCpu = (replicas?.cpuMs() ?? 0) - cpu0;
  const machine1 = machineCpuMs();
  const pg1 = postgresCpuMs();
  const pgUse = [...pg1]
    .map(([kind, ms]) => [kind, ms - (pg0.get(kind) ?? 0)] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]);
  const self = process.cpuUsage(self0);
  // Jobs a replica starts once its own requests are answered: on this machine they share the
  // cores with the other replica's creates still running.
  const [{ provisioned = 0 } = {}] = await h.t.db
    .select({ provisioned: sql<number>`count(*)::int` })
    .from(instances)
    .where(and(like(instances.name, 'bench-%'), sql`${instances.status} <> 'CREATING'`));
  const machineBusy = machine1.busy - machine0.busy;
  const machineAll = machine1.all - machine0.all;
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(profile));
    profiler.disconnect();
  }
  sampling = false;
  await sampler;
  const samples = [...waits.values()].reduce((a, b) => a + b, 0);
  await settled();
  const withJobsCpu = (replicas?.cpuMs() ?? 0) - cpu0;

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
  const kind = onPostgres ? 'PostgreSQL, 2 replica processes' : 'PGlite, 1 app';
  const lines = [
    `one create at a time (${kind}): p50 ${Math.round(percentile(alone, 0.5))} ms, max ${Math.round(alone.at(-1) ?? 0)} ms`,
    `${CREATES} concurrent 1-GPU creates (${kind}, over ${usable.length} machines of a ${fleet}-host fleet, ${capacity} GPUs): ` +
      `p50 ${Math.round(percentile(ms, 0.5))} ms, p99 ${Math.round(percentile(ms, 0.99))} ms, ` +
      `all answered in ${Math.round(wall)} ms; ` +
      `answers ${[...statuses].map(([s, c]) => `${s}×${c}`).join(' ')}; ${running.length} RUNNING after provisioning`,
    onPostgres && fleet >= GOAL_FLEET
      ? `  goal: p99 ≤ ${GOAL_P99_MS} ms on two replicas with ${GOAL_FLEET} hosts: ${percentile(ms, 0.99) <= GOAL_P99_MS ? 'met' : 'NOT met'}`
      : `  (the p99 ≤ ${GOAL_P99_MS} ms goal is read on PostgreSQL with a ${GOAL_FLEET}-host fleet)`,
    ...(replicas
      ? [
          `replicas' CPU time: ${(burstCpu / CREATES).toFixed(1)} ms per create until the last answer, ` +
            `${(withJobsCpu / CREATES).toFixed(1)} ms with its provisioning`,
          // Whether the burst was bound by CPU: the machine's busy share over it, and who used it
          // (the replicas, this process as client and sampler, and the rest: PostgreSQL and the kernel).
          `machine during the burst: ${machineAll > 0 ? Math.round((100 * machineBusy) / machineAll) : '?'} % busy ` +
            `(${(machineBusy / wall).toFixed(2)} cores of ${machineAll > 0 ? (machineAll / wall).toFixed(1) : '?'}); ` +
            `CPU per create: ${(machineBusy / CREATES).toFixed(1)} ms in all, replicas ${(burstCpu / CREATES).toFixed(1)}, ` +
            `client ${((self.user + self.system) / 1000 / CREATES).toFixed(1)}, ` +
            `PostgreSQL and kernel ${((machineBusy - burstCpu - (self.user + self.system) / 1000) / CREATES).toFixed(1)}` +
            ` (PostgreSQL's processes: ${pgUse.map(([k, ms]) => `${k} ${(ms / CREATES).toFixed(1)}`).join(', ') || 'none seen'}); ` +
            `${provisioned} of the ${CREATES} had left CREATING right after the last answer (their jobs ran during the burst)`,
        ]
      : []),
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
  await replicas?.stop();
  agent.destroy();
  await h.t.close();
  if (problems.length > 0) throw new Error(lines.join('\n'));
  return lines;
}
