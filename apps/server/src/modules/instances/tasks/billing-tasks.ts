import { formatTime } from '@gpu/shared/time';
import type { InstanceDeps } from '../instances.deps.ts';
import { createInstancesRepository } from '../instances.repository.ts';
import { powerOff, release } from '../lifecycle/lifecycle.usecases.ts';
import { createMeteringRepository } from '../metering/metering.repository.ts';
import { chargeAccruedMany } from '../metering/metering.ts';
import { createLifecycleNoticesRepository } from './lifecycle-notices.repository.ts';
import { arrearsNotice, NOTICE_LEADS_DAYS, notifyReleaseScheduled } from './lifecycle-notices.ts';

const SYSTEM = { kind: 'system' } as const;
/** A scheduled task is no request: it drives the transition itself and sees how it ended. */
const INLINE = { inline: true };

/**
 * Instances charged per transaction. Large, as a batch is a few set-based statements whatever
 * its size and each account is then written once per run; a failed batch is redone in halves.
 */
export const METERING_BATCH = 10_000;
/**
 * Batches charged at the same time, each in its own transaction and connection: a batch is
 * one database backend's work, and two keep two cores busy. Each lane takes the instances of
 * its own owners (user id modulo the lanes), so lanes never wait on each other's account locks.
 */
export const METERING_LANES = 2;

/**
 * Metering, every minute: every pay-as-you-go instance with something due is charged what it
 * accrued since its last charge, in batches (ascending id) that lock the rows due and skip
 * rows another replica holds (each charge's ledger key also makes a repeat a no-op); each
 * batch is a few set-based statements (chargeAccruedMany). An instance whose owner's available
 * balance is then ≤ 0 is powered off (arrears). A batch that fails (one refused posting rolls
 * back all of it) is redone in halves down to single instances, so one account cannot stop
 * metering for the others; what still fails alone is logged and counted in `failed`.
 * `instances` counts the instances this run locked with something due.
 */
export async function runMetering(deps: InstanceDeps, opts: { batch?: number; lanes?: number } = {}) {
  const size = opts.batch ?? METERING_BATCH;
  const now = deps.clock.now();
  const owner = new Map<number, number>();
  let charged = 0;
  let failed = 0;
  const arrears: number[] = [];
  const run = async (which: Parameters<typeof meterBatch>[2], seen: { id: number; userId: number }[]) => {
    const done = await meterBatch(deps, now, which, seen);
    charged += done.charged;
    arrears.push(...done.arrears);
  };
  // A failed batch (nothing of it committed) is redone in halves; alone, it is logged and counted.
  const retry = async (err: unknown, ids: number[]): Promise<void> => {
    if (ids.length === 1) {
      failed++;
      logFailure(deps, err, ids[0] as number, owner);
      return;
    }
    deps.log.warn({ err, instances: ids.length }, 'metering batch failed; retrying it in halves');
    const half = Math.ceil(ids.length / 2);
    for (const part of [ids.slice(0, half), ids.slice(half)]) {
      await run({ ids: part }, []).catch((e) => retry(e, part));
    }
  };
  let instances = 0;
  const lanes = opts.lanes ?? METERING_LANES;
  const lane = async (_: unknown, index: number) => {
    let afterId = 0;
    while (true) {
      const seen: { id: number; userId: number }[] = [];
      try {
        await run({ afterId, limit: size, lane: { index, of: lanes } }, seen);
      } catch (err) {
        if (seen.length === 0) throw err; // not even locked: the database is away
        for (const inst of seen) owner.set(inst.id, inst.userId);
        await retry(
          err,
          seen.map((i) => i.id),
        );
      }
      for (const inst of seen) owner.set(inst.id, inst.userId);
      instances += seen.length;
      const last = seen.at(-1);
      if (!last || seen.length < size) break;
      afterId = last.id;
    }
  };
  // Every lane ends before the run does, even when one fails (no transaction left running).
  const ended = await Promise.allSettled(Array.from({ length: lanes }, lane));
  const lost = ended.find((e) => e.status === 'rejected');
  if (lost) throw lost.reason;
  for (const id of arrears) {
    await powerOff(deps, id, SYSTEM, 'arrears', { ...INLINE, notice: arrearsNotice }).catch((err) =>
      deps.log.error({ err, instanceId: id, userId: owner.get(id) }, 'arrears power-off failed'),
    );
  }
  return { instances, charged, arrears: arrears.length, failed };
}

const logFailure = (deps: InstanceDeps, err: unknown, id: number, owner: Map<number, number>) =>
  deps.log.error({ err, instanceId: id, userId: owner.get(id) }, 'metering failed for an instance');

/**
 * One transaction: lock what is due, charge it, find arrears. `seen` gets the rows locked (so
 * a failed batch can be redone one by one); the results count only once it committed.
 */
async function meterBatch(
  deps: InstanceDeps,
  now: Date,
  which: Parameters<ReturnType<typeof createMeteringRepository>['lockDue']>[1],
  seen: { id: number; userId: number }[],
) {
  const arrears: number[] = [];
  const charged = await deps.db.transaction(async (tx) => {
    const locked = await createMeteringRepository({ db: tx }).lockDue(now, which);
    seen.push(...locked);
    const { charged: sum, available } = await chargeAccruedMany(tx, locked, now);
    for (const inst of locked) {
      if (inst.status === 'RUNNING' && (available.get(inst.userId) ?? 0) <= 0) arrears.push(inst.id);
    }
    return sum;
  });
  return { charged, arrears };
}

/** Package expiry: a package whose time is up is powered off; renewal lets it run again. */
export async function runExpiry(deps: InstanceDeps) {
  const due = await createInstancesRepository(deps).expired(deps.clock.now());
  for (const { id } of due) {
    await powerOff(deps, id, SYSTEM, 'expired', INLINE).catch((err) =>
      deps.log.error({ err, instanceId: id }, 'expiry power-off failed'),
    );
  }
  return { expired: due.length };
}

/** Days before release that the user is warned. */
export const RELEASE_WARNING_DAYS = Math.max(...NOTICE_LEADS_DAYS);

/**
 * Retention: an instance stopped for `retentionDays` is released; from RELEASE_WARNING_DAYS
 * before that its warning says when.
 */
export async function runRetention(deps: InstanceDeps) {
  const now = deps.clock.now();
  const day = 86_400_000;
  const repo = createInstancesRepository(deps);
  const releaseBefore = new Date(now.getTime() - deps.retentionDays * day);
  const warnBefore = new Date(now.getTime() - (deps.retentionDays - RELEASE_WARNING_DAYS) * day);
  let released = 0;
  let warned = 0;
  for (const inst of await createLifecycleNoticesRepository(deps).stoppedSince(warnBefore)) {
    if (!inst.stoppedAt) continue;
    if (inst.stoppedAt.getTime() <= releaseBefore.getTime()) {
      await release(deps, inst.id, SYSTEM, '关机超过保留期限，系统已释放', INLINE).then(
        () => released++,
        (err) => deps.log.error({ err, instanceId: inst.id }, 'retention release failed'),
      );
      continue;
    }
    const at = new Date(inst.stoppedAt.getTime() + deps.retentionDays * day);
    await notifyReleaseScheduled(deps, { ...inst, stoppedAt: inst.stoppedAt }, at, now);
    const text = `实例已关机，数据将于${formatTime(at, 'YYYY-MM-DD HH:mm')}释放，请及时开机或备份`;
    if (inst.warning !== text) {
      await repo.update(inst.id, { warning: text });
      warned++;
    }
  }
  return { released, warned };
}
