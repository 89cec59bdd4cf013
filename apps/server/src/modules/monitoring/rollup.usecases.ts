import { RAW_SAMPLE_RETENTION_MS, ROLLUP_BUCKET_MS, ROLLUP_RETENTION_MS } from '@gpu/shared/monitoring';
import { runExclusively } from '../../platform/tasks.ts';
import type { MonitoringDeps } from './monitoring.deps.ts';
import { createMonitoringRepository } from './monitoring.repository.ts';

/** A bucket is rolled up this long after it ends: samples of its last slot are written by then. */
export const ROLLUP_GRACE_MS = 60_000;
/** Buckets per run: a backlog (a day after downtime) is caught up in bounded steps. */
export const MAX_BUCKETS_PER_RUN = 24;
/** Rows deleted per table per run: retention never holds a long lock or a long transaction. */
export const DELETE_BATCH = 50_000;

const floorTo = (t: number, step: number) => Math.floor(t / step) * step;

/**
 * The `monitoring.rollup` task, under an advisory lock (one replica at a time): rolls up the
 * complete five-minute buckets since the last run (at most MAX_BUCKETS_PER_RUN), then deletes raw
 * samples past RAW_SAMPLE_RETENTION_MS and rollups past ROLLUP_RETENTION_MS, a bounded batch each.
 */
export async function runRollup(deps: Pick<MonitoringDeps, 'db' | 'clock'>) {
  const now = deps.clock.now().getTime();
  let result: Record<string, unknown> = { skipped: true };
  await runExclusively(deps.db, 'monitoring.rollup', async (tx) => {
    const repo = createMonitoringRepository({ db: tx });
    const complete = floorTo(now - ROLLUP_GRACE_MS, ROLLUP_BUCKET_MS);
    const earliest = floorTo(now - RAW_SAMPLE_RETENTION_MS, ROLLUP_BUCKET_MS) + ROLLUP_BUCKET_MS;
    let from = Math.max((await repo.rolledUntil())?.getTime() ?? earliest, earliest);
    // Far behind (first run, downtime): skip the empty stretch to the first sample's bucket.
    if (complete - from > MAX_BUCKETS_PER_RUN * ROLLUP_BUCKET_MS) {
      const first = await repo.firstSampleSince(new Date(from));
      from = first ? Math.max(from, floorTo(first.getTime(), ROLLUP_BUCKET_MS)) : complete;
    }
    const to = Math.min(from + MAX_BUCKETS_PER_RUN * ROLLUP_BUCKET_MS, complete);
    let rolled = 0;
    if (to > from) {
      rolled = await repo.rollUp(new Date(from), new Date(to), ROLLUP_BUCKET_MS / 1000);
      await repo.setRolledUntil(new Date(to));
    }
    const rawDeleted = await repo.deleteRawBefore(new Date(now - RAW_SAMPLE_RETENTION_MS), DELETE_BATCH);
    const rollupsDeleted = await repo.deleteRollupsBefore(new Date(now - ROLLUP_RETENTION_MS), DELETE_BATCH);
    result = { rolled, until: new Date(Math.max(to, from)).toISOString(), rawDeleted, rollupsDeleted };
  });
  return result;
}
