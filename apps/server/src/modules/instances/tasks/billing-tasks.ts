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
 * balance is then ≤ 0 is powered off (arrears).
 */
export async function runMetering(deps: InstanceDeps) {
  const now = deps.clock.now();
  const ids = (await createInstancesRepository(deps).due(now)).map((r) => r.id);
  let charged = 0;
  const arrears: number[] = [];
  for (let off = 0; off < ids.length; off += METERING_BATCH) {
    const batch = ids.slice(off, off + METERING_BATCH);
    await deps.db.transaction(async (tx) => {
      const locked = await createInstancesRepository({ db: tx }).lockBatch(batch);
      const accruing = locked.filter((inst) => inst.status === 'RUNNING' || inst.status === 'STOPPING');
      charged += await chargeAccruedMany(tx, accruing, now);
      const owners = new Map<number, number>();
      for (const inst of accruing) if (inst.status === 'RUNNING') owners.set(inst.id, inst.userId);
      const balances = await createBillingRepository({ db: tx }).availableOf([...new Set(owners.values())]);
      for (const [id, userId] of owners) if ((balances.get(userId) ?? 0) <= 0) arrears.push(id);
    });
  }
  for (const id of arrears) await powerOff(deps, id, SYSTEM, 'arrears').catch(() => undefined);
  return { instances: ids.length, charged, arrears: arrears.length };
}

/** Package expiry: a package whose time is up is powered off; renewal lets it run again. */
export async function runExpiry(deps: InstanceDeps) {
  const due = await createInstancesRepository(deps).expired(deps.clock.now());
  for (const { id } of due) await powerOff(deps, id, SYSTEM, 'expired').catch(() => undefined);
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
        () => undefined,
      );
      continue;
    }
    const at = new Date(inst.stoppedAt.getTime() + deps.retentionDays * day);
    const text = `实例已关机，数据将于${at.toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false })}释放，请及时开机或备份`;
    if (inst.warning !== text) {
      await repo.update(inst.id, { warning: text });
      warned++;
    }
  }
  return { released, warned };
}
