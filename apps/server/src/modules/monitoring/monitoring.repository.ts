import { and, asc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { gpuSkus } from '../hosts/catalog.tables.ts';
import { hostGpus, hosts } from '../hosts/hosts.tables.ts';
import { instances } from '../instances/instances.tables.ts';
import type { ChartRow } from './monitoring.models.ts';
import { instanceSampleRollups, instanceSamples, monitoringRollupState } from './monitoring.tables.ts';

const R = instanceSampleRollups;

type ChartJson = [
  number,
  number,
  number[],
  number[],
  number[],
  number[],
  number,
  number,
  number,
  number,
  number,
];

/**
 * Chart rows in time order as one JSON array built by the database: a week is 2,016 rows of four
 * arrays each, and one JSON.parse costs far less than the driver parsing 8,000 array literals.
 */
async function chartRows(
  db: DbOrTx,
  table: typeof instanceSamples | typeof instanceSampleRollups,
  where: SQL,
  time: 'at' | 'bucket',
): Promise<ChartRow[]> {
  const t = sql.identifier(time);
  const res = await db.execute(sql`
    select coalesce(json_agg(json_build_array(extract(epoch from ${t}) * 1000, instance_id, gpu_indexes, gpu_util,
      gpu_mem_used_mib, gpu_mem_total_mib, cpu_percent, mem_used_bytes, mem_limit_bytes, disk_used_bytes,
      disk_limit_bytes) order by ${t}), '[]')::text as rows
    from ${table} where ${where}`);
  const text = (res as unknown as { rows: { rows: string }[] }).rows[0]?.rows ?? '[]';
  return (JSON.parse(text) as ChartJson[]).map((r) => ({
    at: new Date(r[0]),
    instanceId: r[1],
    gpuIndexes: r[2],
    gpuUtil: r[3],
    gpuMemUsedMib: r[4],
    gpuMemTotalMib: r[5],
    cpuPercent: r[6],
    memUsedBytes: r[7],
    memLimitBytes: r[8],
    diskUsedBytes: r[9],
    diskLimitBytes: r[10],
  }));
}

/** SQL of monitoring: what to sample, chart reads, rollups and retention. */
export function createMonitoringRepository({ db }: { db: DbOrTx }) {
  return {
    /** Running instances with a container, their host and what their SKU gives (limits a driver may not know). */
    runningInstances() {
      return db
        .select({
          id: instances.id,
          hostId: instances.hostId,
          containerId: instances.containerId,
          gpuIndices: instances.gpuIndices,
          gpuCount: instances.gpuCount,
          memoryPerGpuGb: gpuSkus.memoryPerGpuGb,
          systemDiskGb: gpuSkus.systemDiskGb,
        })
        .from(instances)
        .innerJoin(gpuSkus, eq(gpuSkus.id, instances.skuId))
        .where(and(eq(instances.status, 'RUNNING'), sql`${instances.containerId} is not null`));
    },
    hostRows(ids: number[]) {
      return ids.length === 0 ? Promise.resolve([]) : db.select().from(hosts).where(inArray(hosts.id, ids));
    },
    /** Hosts another replica has already sampled in this slot (their engines need not be asked again). */
    async hostsSampledAt(at: Date, hostIds: number[]): Promise<Set<number>> {
      if (hostIds.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ hostId: instanceSamples.hostId })
        .from(instanceSamples)
        .where(and(eq(instanceSamples.at, at), inArray(instanceSamples.hostId, hostIds)));
      return new Set(rows.map((r) => r.hostId));
    },

    instanceRaw: (instanceId: number, from: Date) =>
      chartRows(db, instanceSamples, sql`instance_id = ${instanceId} and at > ${from}`, 'at'),
    instanceRollups: (instanceId: number, from: Date) =>
      chartRows(db, R, sql`instance_id = ${instanceId} and bucket > ${from}`, 'bucket'),
    hostRaw: (hostId: number, from: Date) =>
      chartRows(db, instanceSamples, sql`host_id = ${hostId} and at > ${from}`, 'at'),
    hostRollups: (hostId: number, from: Date) =>
      chartRows(db, R, sql`host_id = ${hostId} and bucket > ${from}`, 'bucket'),
    /** The host's GPU count (its inventory), or null when there is no such host. */
    async hostGpuCount(hostId: number): Promise<number | null> {
      const [host] = await db.select({ id: hosts.id }).from(hosts).where(eq(hosts.id, hostId));
      return host ? db.$count(hostGpus, eq(hostGpus.hostId, hostId)) : null;
    },

    /** The user's running instances of this tenant, oldest first. */
    async runningOf(userId: number, tenantId: number): Promise<number[]> {
      const rows = await db
        .select({ id: instances.id })
        .from(instances)
        .where(
          and(
            eq(instances.userId, userId),
            eq(instances.tenantId, tenantId),
            eq(instances.status, 'RUNNING'),
          ),
        )
        .orderBy(asc(instances.id));
      return rows.map((r) => r.id);
    },
    /** Per instance and minute since `from`: the average over the minute of each sample's busiest GPU. */
    busiestPerMinute(instanceIds: number[], from: Date) {
      if (instanceIds.length === 0) return Promise.resolve([]);
      return db
        .select({
          instanceId: instanceSamples.instanceId,
          minute: sql<string>`extract(epoch from date_trunc('minute', ${instanceSamples.at}))::bigint`,
          util: sql<number>`avg(coalesce((select max(u) from unnest(${instanceSamples.gpuUtil}) u), 0))::real`,
        })
        .from(instanceSamples)
        .where(and(inArray(instanceSamples.instanceId, instanceIds), gte(instanceSamples.at, from)))
        .groupBy(sql`1, 2`);
    },

    async rolledUntil(): Promise<Date | null> {
      const [row] = await db.select().from(monitoringRollupState).where(eq(monitoringRollupState.id, 1));
      return row?.rolledUntil ?? null;
    },
    async firstSampleSince(from: Date): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | null>`min(${instanceSamples.at})`.mapWith(instanceSamples.at) })
        .from(instanceSamples)
        .where(gte(instanceSamples.at, from));
      return row?.at ?? null;
    },
    async setRolledUntil(at: Date) {
      await db
        .insert(monitoringRollupState)
        .values({ id: 1, rolledUntil: at })
        .onConflictDoUpdate({ target: monitoringRollupState.id, set: { rolledUntil: at } });
    },
    /**
     * Five-minute buckets in [from, to) from the raw samples, one statement: per-GPU averages by
     * array position, the busiest GPU's highest sample, and the rest averaged. A bucket already
     * rolled up is left as it is.
     */
    async rollUp(from: Date, to: Date, bucketSeconds: number): Promise<number> {
      const rows = await db.execute(sql`
        insert into ${R} (instance_id, bucket, host_id, gpu_indexes, gpu_util, gpu_util_max, gpu_mem_used_mib,
          gpu_mem_total_mib, cpu_percent, mem_used_bytes, mem_limit_bytes, disk_used_bytes, disk_limit_bytes, samples)
        select b.instance_id, b.bucket, b.host_id, coalesce(g.indexes, '{}'), coalesce(g.util, '{}'),
          coalesce(g.util_max, 0), coalesce(g.mem_used, '{}'), coalesce(g.mem_total, '{}'),
          b.cpu, b.mem_used, b.mem_limit, b.disk_used, b.disk_limit, b.n
        from (
          select instance_id, to_timestamp(floor(extract(epoch from at) / ${bucketSeconds}) * ${bucketSeconds}) as bucket,
            max(host_id) as host_id, avg(cpu_percent)::real as cpu, avg(mem_used_bytes)::bigint as mem_used,
            max(mem_limit_bytes) as mem_limit, avg(disk_used_bytes)::bigint as disk_used,
            max(disk_limit_bytes) as disk_limit, count(*)::int as n
          from ${instanceSamples}
          where at >= ${from} and at < ${to}
          group by 1, 2
        ) b
        left join lateral (
          select array_agg(gi order by ord) as indexes, array_agg(u order by ord) as util, max(umax) as util_max,
            array_agg(mu order by ord) as mem_used, array_agg(mt order by ord) as mem_total
          from (
            select x.ord, max(x.gi) as gi, avg(x.u)::real as u, max(x.u) as umax, avg(x.mu)::real as mu, max(x.mt) as mt
            from ${instanceSamples} s,
              unnest(s.gpu_util, s.gpu_mem_used_mib, s.gpu_mem_total_mib, s.gpu_indexes) with ordinality as x(u, mu, mt, gi, ord)
            where s.instance_id = b.instance_id and s.at >= b.bucket
              and s.at < b.bucket + make_interval(secs => ${bucketSeconds})
              and x.u is not null
            group by x.ord
          ) per_gpu
        ) g on true
        on conflict (instance_id, bucket) do nothing
        returning 1`);
      return (rows as unknown as { rows: unknown[] }).rows.length;
    },
    /** Deletes at most `limit` raw samples older than `before`; answers how many. */
    async deleteRawBefore(before: Date, limit: number): Promise<number> {
      const gone = await db
        .delete(instanceSamples)
        .where(
          sql`ctid = any(array(select ctid from ${instanceSamples} where ${instanceSamples.at} < ${before} limit ${limit}))`,
        )
        .returning({ at: instanceSamples.at });
      return gone.length;
    },
    async deleteRollupsBefore(before: Date, limit: number): Promise<number> {
      const gone = await db
        .delete(R)
        .where(sql`ctid = any(array(select ctid from ${R} where ${R.bucket} < ${before} limit ${limit}))`)
        .returning({ at: R.bucket });
      return gone.length;
    },
    /** Rows since `from` (tests and the bench). */
    rollupsSince(from: Date) {
      return db.select().from(R).where(gte(R.bucket, from)).orderBy(asc(R.instanceId), asc(R.bucket));
    },
    countRawBefore: async (before: Date) =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(instanceSamples)
          .where(lt(instanceSamples.at, before))
      )[0]?.n ?? 0,
  };
}
