import { createBillingRepository } from '../../billing/billing.repository.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { createInstancesRepository } from '../instances.repository.ts';
import { powerOff, release } from '../lifecycle.usecases.ts';
import { chargeAccrued } from '../metering.ts';

const SYSTEM = { kind: 'system' } as const;

/**
 * Metering, every minute: each accruing pay-as-you-go instance is charged what it accrued since
 * its last charge, in its own transaction under its row lock (safe on every replica at once).
 * An instance whose owner's available balance is then ≤ 0 is powered off (arrears).
 */
export async function runMetering(deps: InstanceDeps) {
  const now = deps.clock.now();
  const ids = await createInstancesRepository(deps).accruing();
  let charged = 0;
  const arrears: number[] = [];
  for (const { id } of ids) {
    const overdrawn = await deps.db.transaction(async (tx) => {
      const inst = await createInstancesRepository({ db: tx }).lock(id);
      if (!inst || (inst.status !== 'RUNNING' && inst.status !== 'STOPPING')) return false;
      charged += await chargeAccrued(tx, inst, now);
      const account = await createBillingRepository({ db: tx }).account(inst.userId);
      return inst.status === 'RUNNING' && (account?.available ?? 0) <= 0;
    });
    if (overdrawn) arrears.push(id);
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
