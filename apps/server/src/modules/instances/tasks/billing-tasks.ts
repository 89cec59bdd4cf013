import { formatTime } from '@gpu/shared/time';
import { createBillingRepository } from '../../billing/billing.repository.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { createInstancesRepository } from '../instances.repository.ts';
import { powerOff, release } from '../lifecycle.usecases.ts';
import { chargeAccruedMany } from '../metering.ts';

const SYSTEM = { kind: 'system' } as const;

/** Instances charged per transaction: fewer round trips, and a failure redoes only its batch. */
export const METERING_BATCH = 200;

/**
 * Metering, every minute: every pay-as-you-go instance with something due is charged what it
 * accrued since its last charge, in batches under row locks that other replicas skip (each
 * charge's ledger key also makes a repeat a no-op). An instance whose owner's available
 * balance is then ≤ 0 is powered off (arrears). A batch that fails (one refused posting rolls
 * back all of it) is redone one instance at a time, so one account cannot stop metering for
 * the others; what still fails is logged and counted in `failed`.
 */
export async function runMetering(deps: InstanceDeps) {
  const now = deps.clock.now();
  const due = await createInstancesRepository(deps).due(now);
  const owner = new Map(due.map((r) => [r.id, r.userId]));
  const ids = due.map((r) => r.id);
  let charged = 0;
  let failed = 0;
  const arrears: number[] = [];
  const run = async (batch: number[]) => {
    const done = await meterBatch(deps, batch, now);
    charged += done.charged;
    arrears.push(...done.arrears);
  };
  for (let off = 0; off < ids.length; off += METERING_BATCH) {
    const batch = ids.slice(off, off + METERING_BATCH);
    try {
      await run(batch);
    } catch (err) {
      if (batch.length === 1) {
        failed++;
        logFailure(deps, err, batch[0] as number, owner);
        continue;
      }
      deps.log.warn(
        { err, instances: batch.length },
        'metering batch failed; retrying one instance at a time',
      );
      for (const id of batch) {
        await run([id]).catch((e) => {
          failed++;
          logFailure(deps, e, id, owner);
        });
      }
    }
  }
  for (const id of arrears) {
    await powerOff(deps, id, SYSTEM, 'arrears').catch((err) =>
      deps.log.error({ err, instanceId: id, userId: owner.get(id) }, 'arrears power-off failed'),
    );
  }
  return { instances: ids.length, charged, arrears: arrears.length, failed };
}

const logFailure = (deps: InstanceDeps, err: unknown, id: number, owner: Map<number, number>) =>
  deps.log.error({ err, instanceId: id, userId: owner.get(id) }, 'metering failed for an instance');

/** One transaction: lock, charge, find arrears. Its results count only once it committed. */
async function meterBatch(deps: InstanceDeps, batch: number[], now: Date) {
  const arrears: number[] = [];
  const charged = await deps.db.transaction(async (tx) => {
    const locked = await createInstancesRepository({ db: tx }).lockBatch(batch);
    const accruing = locked.filter((inst) => inst.status === 'RUNNING' || inst.status === 'STOPPING');
    const sum = await chargeAccruedMany(
      tx,
      accruing.map((inst) => inst.id),
      now,
    );
    const owners = new Map<number, number>();
    for (const inst of accruing) if (inst.status === 'RUNNING') owners.set(inst.id, inst.userId);
    const balances = await createBillingRepository({ db: tx }).availableOf([...new Set(owners.values())]);
    for (const [id, userId] of owners) if ((balances.get(userId) ?? 0) <= 0) arrears.push(id);
    return sum;
  });
  return { charged, arrears };
}

/** Package expiry: a package whose time is up is powered off; renewal lets it run again. */
export async function runExpiry(deps: InstanceDeps) {
  const due = await createInstancesRepository(deps).expired(deps.clock.now());
  for (const { id } of due) {
    await powerOff(deps, id, SYSTEM, 'expired').catch((err) =>
      deps.log.error({ err, instanceId: id }, 'expiry power-off failed'),
    );
  }
  return { expired: due.length };
}

/** Days before release that the user is warned. */
export const RELEASE_WARNING_DAYS = 3;

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
  for (const inst of await repo.stoppedSince(warnBefore)) {
    if (!inst.stoppedAt) continue;
    if (inst.stoppedAt.getTime() <= releaseBefore.getTime()) {
      await release(deps, inst.id, SYSTEM, '关机超过保留期限，系统已释放').then(
        () => released++,
        (err) => deps.log.error({ err, instanceId: inst.id }, 'retention release failed'),
      );
      continue;
    }
    const at = new Date(inst.stoppedAt.getTime() + deps.retentionDays * day);
    const text = `实例已关机，数据将于${formatTime(at, 'YYYY-MM-DD HH:mm')}释放，请及时开机或备份`;
    if (inst.warning !== text) {
      await repo.update(inst.id, { warning: text });
      warned++;
    }
  }
  return { released, warned };
}
