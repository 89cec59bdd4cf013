import { and, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { hostGpus } from './hosts.tables.ts';

/**
 * The one definition of what a GPU is doing (issue 28: the hosts page, 实例管理, the market and
 * the metrics each counted their own way and disagreed):
 * - `idle` 空闲: can be allocated now: no instance holds it, nobody reserved it, its host is ACTIVE;
 * - `occupied` 占用: held by an instance that is not powered off (creating, running, stopping, …);
 * - `reserved` 保留: held but not working: by a powered-off package instance (packages keep their
 *   GPUs when powered off; pay-as-you-go gives them back), taken out of sale (`reserved_reason`:
 *   an offline customer, maintenance, missing from the last probe), or on a disabled or
 *   maintenance host.
 * Every GPU is in exactly one state; 使用率 is (occupied + reserved) / total = 1 − idle / total.
 */
export const GPU_STATES = ['idle', 'occupied', 'reserved'] as const;
export type GpuState = (typeof GPU_STATES)[number];

/** No instance holds it and nobody reserved it: what allocation takes (on an ACTIVE host). */
export const unheldGpu = (): SQL => and(isNull(hostGpus.instanceId), isNull(hostGpus.reservedReason)) as SQL;

/**
 * The state of the `host_gpus` row in scope (the table under its own name, not an alias). The
 * instance's status and the host's are read by correlated sub-selects, so any query over
 * host_gpus can use it; `instances` is named in SQL, not imported: instances sit above hosts.
 */
export const gpuState = (): SQL<GpuState> => sql<GpuState>`(case
  when ${hostGpus.instanceId} is not null then
    case when exists (select 1 from instances gi where gi.id = ${hostGpus.instanceId} and gi.status = 'STOPPED')
      then 'reserved' else 'occupied' end
  when ${hostGpus.reservedReason} is not null then 'reserved'
  when exists (select 1 from hosts gh where gh.id = ${hostGpus.hostId} and gh.status <> 'ACTIVE') then 'reserved'
  else 'idle' end)`;

const countOf = (state: GpuState) => sql<number>`(count(*) filter (where ${gpuState()} = ${state}))::int`;

/**
 * GPU counts per (host, model) by state, over the hosts `hostFilter` (a condition on
 * `host_gpus`) lets through, all when none: a sub-query a caller may join (`.as(name)`) or run.
 */
export function gpuStateCountsQuery(db: DbOrTx, hostFilter?: SQL) {
  return db
    .select({
      hostId: hostGpus.hostId,
      model: hostGpus.model,
      total: sql<number>`count(*)::int`.as('total'),
      idle: countOf('idle').as('idle'),
      occupied: countOf('occupied').as('occupied'),
      reserved: countOf('reserved').as('reserved'),
    })
    .from(hostGpus)
    .where(hostFilter)
    .groupBy(hostGpus.hostId, hostGpus.model);
}

export interface GpuStateCounts {
  total: number;
  idle: number;
  occupied: number;
  reserved: number;
}
export interface GpuStateRow extends GpuStateCounts {
  hostId: number;
  model: string;
}

/** `gpuStateCountsQuery`, run: one row per (host, model). */
export async function countGpuStates(db: DbOrTx, hostFilter?: SQL): Promise<GpuStateRow[]> {
  return (await gpuStateCountsQuery(db, hostFilter)).map(toGpuStateRow);
}

/** A row of `gpuStateCountsQuery` with its counts as numbers (a driver may answer them as text). */
const toGpuStateRow = (r: GpuStateRow): GpuStateRow => ({
  hostId: r.hostId,
  model: r.model,
  total: Number(r.total),
  idle: Number(r.idle),
  occupied: Number(r.occupied),
  reserved: Number(r.reserved),
});

const ZERO: GpuStateCounts = { total: 0, idle: 0, occupied: 0, reserved: 0 };

/** Sums rows of `countGpuStates`: all of them (`key` omitted) or per key (host, model, …). */
export function sumGpuStates(rows: GpuStateRow[]): GpuStateCounts;
export function sumGpuStates<K>(rows: GpuStateRow[], key: (r: GpuStateRow) => K): Map<K, GpuStateCounts>;
export function sumGpuStates<K>(rows: GpuStateRow[], key?: (r: GpuStateRow) => K) {
  const add = (a: GpuStateCounts, r: GpuStateCounts): GpuStateCounts => ({
    total: a.total + r.total,
    idle: a.idle + r.idle,
    occupied: a.occupied + r.occupied,
    reserved: a.reserved + r.reserved,
  });
  if (!key) return rows.reduce(add, ZERO);
  const out = new Map<K, GpuStateCounts>();
  for (const r of rows) out.set(key(r), add(out.get(key(r)) ?? ZERO, r));
  return out;
}

/** The share of GPUs not idle, 0–1 to four places: what 使用率 shows everywhere. */
export const gpuUtilization = (c: GpuStateCounts) =>
  c.total ? Math.round(((c.total - c.idle) / c.total) * 10_000) / 10_000 : 0;
