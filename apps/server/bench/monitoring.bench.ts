import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { METRICS_RANGE_SPECS, SAMPLE_INTERVAL_MS } from '@gpu/shared/monitoring';
import { sql } from 'drizzle-orm';
import type { ContainerSample } from '../src/modules/hosts/index.ts';
import { instancePoints, toSampleRow } from '../src/modules/monitoring/monitoring.models.ts';
import { createMonitoringRepository } from '../src/modules/monitoring/monitoring.repository.ts';
import { createSamplesRepository } from '../src/modules/monitoring/samples.repository.ts';
import type { Db } from '../src/platform/db/client.ts';
import { createTestDatabase } from '../src/test/test-app.ts';

const INGEST_INSTANCES = Number(process.env.BENCH_MON_INSTANCES ?? 2000);
const GPUS = 8;
const ROUNDS = 5;
const QUERIES = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p99 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? 0;
};
const f1 = (x: number) => x.toFixed(1);

/** Counts the statements `record` sends (each `insert` builder is one statement). */
function countingInserts(db: Db) {
  let inserts = 0;
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (key === 'insert')
        return (...args: unknown[]) => {
          inserts++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db: proxy as Db, count: () => inserts };
}

/**
 * Monitoring (issue 31). Ingestion: a 15 s batch of INGEST_INSTANCES running instances × 8 GPUs,
 * built from driver samples as the sampling task builds it and written by `record`; CPU time of
 * this process per batch against 15 s of one core, and the statements per batch. Baseline: the
 * same number of rows of two columns in one plain multi-row INSERT. Charts: the 7-day query
 * (rollups read and turned into points) for random instances, p99, with 30 days of 5-minute
 * rollups for every instance seeded by generate_series in time order (as the rollup task writes
 * them); baseline: one primary-key row read.
 * On PGlite (no DATABASE_URL) the 30 days are seeded for BENCH_MON_CHART_INSTANCES (default
 * 50): the full 2,000 × 30 days (17 million rows) needs scripts/with-postgres.sh.
 */
export async function benchMonitoring(): Promise<string[]> {
  const database = await createTestDatabase();
  const { db } = database;
  const onPg = database.kind !== 'pglite';
  const chartInstances = Number(process.env.BENCH_MON_CHART_INSTANCES ?? (onPg ? 2000 : 50));
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(since);
    return (d.user + d.system) / 1000;
  };
  const T0 = Math.floor(Date.now() / SAMPLE_INTERVAL_MS) * SAMPLE_INTERVAL_MS;
  const instances = Array.from({ length: INGEST_INSTANCES }, (_, k) => ({
    id: k + 1,
    hostId: Math.floor(k / GPUS) + 1,
    gpuIndices: Array.from({ length: GPUS }, (_, g) => g),
    gpuCount: GPUS,
    memoryPerGpuGb: 64,
    systemDiskGb: 30,
  }));
  const driverSamples = (round: number): ContainerSample[] =>
    instances.map((inst) => ({
      containerId: `c${inst.id}`,
      instanceId: inst.id,
      gpus: inst.gpuIndices.map((index) => ({
        index,
        util: (inst.id * 7 + index * 13 + round) % 101,
        memUsedMib: 40_000 + index,
        memTotalMib: 81_559,
      })),
      cpuPercent: 123.4,
      memUsedBytes: 100 << 30,
      memLimitBytes: null,
      diskUsedBytes: 5 << 30,
      diskLimitBytes: null,
    }));
  await db.execute(
    sql`create table bench_baseline (instance_id bigint, at timestamptz, primary key (instance_id, at))`,
  );

  const ingest: { cpu: number; ms: number; statements: number }[] = [];
  const baseline: { cpu: number; ms: number }[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const at = new Date(T0 + round * SAMPLE_INTERVAL_MS);
    const samples = driverSamples(round);
    const counting = countingInserts(db);
    gc();
    let cpu = process.cpuUsage();
    let t = performance.now();
    const byId = new Map(instances.map((i) => [i.id, i]));
    const rows = samples.map((s) => toSampleRow(byId.get(s.instanceId) as (typeof instances)[number], s, at));
    await createSamplesRepository({ db: counting.db }).record(rows);
    // Round 0 warms the JIT and the statement path; it is not a figure.
    if (round > 0) ingest.push({ cpu: cpuMs(cpu), ms: performance.now() - t, statements: counting.count() });
    gc();
    cpu = process.cpuUsage();
    t = performance.now();
    const values = sql.join(
      instances.map((i) => sql`(${i.id}, ${at})`),
      sql`, `,
    );
    await db.execute(sql`insert into bench_baseline values ${values}`);
    if (round > 0) baseline.push({ cpu: cpuMs(cpu), ms: performance.now() - t });
  }
  const stored = (await db.execute(sql`select count(*)::int as n from instance_samples`)) as unknown as {
    rows: { n: number }[];
  };
  if (stored.rows[0]?.n !== INGEST_INSTANCES * (ROUNDS + 1))
    throw new Error('a batch did not store every row');

  // 30 days of 5-minute rollups per instance, written a day at a time in time order (as the
  // rollup task writes them: one instance's rows spread over the whole table, not side by side).
  const now = Math.floor(Date.now() / 300_000) * 300_000;
  const buckets = (30 * 24 * 3600_000) / 300_000;
  const perDay = buckets / 30;
  const seedStart = performance.now();
  for (let day = 29; day >= 0; day--) {
    await db.execute(sql`
      insert into instance_sample_rollups (instance_id, bucket, host_id, gpu_indexes, gpu_util, gpu_util_max,
        gpu_mem_used_mib, gpu_mem_total_mib, cpu_percent, mem_used_bytes, mem_limit_bytes, disk_used_bytes,
        disk_limit_bytes, samples)
      select i, to_timestamp(${now / 1000}) - b * interval '5 minutes', (i - 1) / 8 + 1, '{0,1,2,3,4,5,6,7}',
        array[(b % 100)::real, 50, 60, 70, 80, 90, 10, 20], 95, '{40000,40001,40002,40003,40004,40005,40006,40007}',
        '{81559,81559,81559,81559,81559,81559,81559,81559}', 123.4, 107374182400, 549755813888, 5368709120,
        32212254720, 20
      from generate_series(${day * perDay + perDay - 1}::int, ${day * perDay}::int, -1) b,
        generate_series(1, ${chartInstances}::int) i
      order by b desc, i`);
  }
  // What autovacuum does to an insert-only table: the visibility map lets the chart scan stay in the index.
  await db.execute(sql`vacuum analyze instance_sample_rollups`);
  const seedS = (performance.now() - seedStart) / 1000;

  const repo = createMonitoringRepository({ db });
  const spec = METRICS_RANGE_SPECS['7d'];
  const week: number[] = [];
  const readOnly: number[] = [];
  const pk: number[] = [];
  let points = 0;
  for (let q = -20; q < QUERIES; q++) {
    const id = 1 + (((q + 20) * 7919) % chartInstances);
    let t = performance.now();
    const rows = await repo.instanceRollups(id, new Date(now - spec.windowMs));
    const read = performance.now() - t;
    points = instancePoints(rows, spec.stepSeconds).length;
    if (q >= 0) {
      week.push(performance.now() - t);
      readOnly.push(read);
    }
    t = performance.now();
    await db.execute(
      sql`select * from instance_sample_rollups where instance_id = ${id} and bucket = ${new Date(now - 300_000)}`,
    );
    if (q >= 0) pk.push(performance.now() - t);
  }
  await database.close();

  const kind = onPg ? 'PostgreSQL' : 'PGlite (in this process: its CPU is counted)';
  const cpu = median(ingest.map((r) => r.cpu));
  const share = cpu / SAMPLE_INTERVAL_MS;
  return [
    `monitoring ingestion on ${kind}: ${INGEST_INSTANCES} instances × ${GPUS} GPUs per ${SAMPLE_INTERVAL_MS / 1000} s batch`,
    ...ingest.map(
      (r, k) =>
        `  round ${k + 1}: CPU ${f1(r.cpu)} ms, wall ${f1(r.ms)} ms, ${r.statements} statement(s); baseline CPU ${f1(baseline[k]?.cpu ?? 0)} ms, wall ${f1(baseline[k]?.ms ?? 0)} ms`,
    ),
    `  median CPU per batch ${f1(cpu)} ms = ${(share * 100).toFixed(2)} % of one core (target < 10 %); wall ${f1(median(ingest.map((r) => r.ms)))} ms; statements per batch ${Math.max(...ingest.map((r) => r.statements))}`,
    `  vs baseline (${INGEST_INSTANCES} two-column rows, one INSERT): CPU ${(cpu / median(baseline.map((b) => b.cpu))).toFixed(1)}×, wall ${(median(ingest.map((r) => r.ms)) / median(baseline.map((b) => b.ms))).toFixed(1)}×`,
    `monitoring 7-day chart on ${onPg ? 'PostgreSQL' : 'PGlite'}: 30 days of 5-minute rollups for ${chartInstances} instances (${(chartInstances * buckets).toLocaleString('en')} rows, seeded in ${f1(seedS)} s)`,
    `  7-day query + points (${points} points), ${QUERIES} queries: p50 ${f1(median(week))} ms, p99 ${f1(p99(week))} ms (target < 50 ms); of which the database read p50 ${f1(median(readOnly))} ms, p99 ${f1(p99(readOnly))} ms`,
    `  baseline primary-key row read: p50 ${f1(median(pk))} ms, p99 ${f1(p99(pk))} ms — 7-day/baseline p99 ${(p99(week) / p99(pk)).toFixed(1)}×`,
  ];
}
