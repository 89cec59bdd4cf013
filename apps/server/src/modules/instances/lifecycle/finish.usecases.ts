import type { InstanceStatus } from '@gpu/shared';
import { ContainerNotFoundError, createHostsRepository, isDriverError } from '../../hosts/index.ts';
import { createNoticesRepository } from '../../notices/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';

/** What the jobs of power off / on, release and reset share (transitions.usecases.ts, reset.usecases.ts). */
export type Tx = Parameters<Parameters<InstanceDeps['db']['transaction']>[0]>[0];

export async function driverFor(deps: InstanceDeps, inst: InstanceRow) {
  const host = await createHostsRepository(deps).find(inst.hostId);
  if (!host) throw new Error(`host ${inst.hostId} of instance ${inst.id} is gone`);
  return deps.hostDrivers.forHost(host);
}

/** Ends a transition under the row lock, if it is still the one we started. */
export async function finish(
  deps: InstanceDeps,
  inst: InstanceRow,
  expect: InstanceStatus,
  to: InstanceStatus,
  reason: string,
  work?: (tx: Tx, locked: InstanceRow, now: Date) => Promise<object | undefined>,
  success = false,
): Promise<InstanceRow> {
  const now = deps.clock.now();
  const done = await deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(inst.id);
    if (!locked || locked.status !== expect) return locked ?? inst;
    const patch = {
      status: to,
      transitionAt: null,
      claimedUntil: null,
      transitionJob: null,
      ...((await work?.(tx, locked, now)) ?? {}),
    };
    await repo.update(inst.id, patch);
    await repo.event(inst.id, expect, to, 'system', reason, now);
    const notice = locked.transitionJob?.notice;
    if (success && notice)
      await createNoticesRepository({ db: tx }).notify({
        userId: locked.userId,
        instanceId: locked.id,
        ...notice,
      });
    return { ...locked, ...patch } as InstanceRow;
  });
  deps.market.invalidate();
  return done;
}

/** A container already gone counts as removed. */
export const ignoreGone = (err: unknown) => {
  if (!(err instanceof ContainerNotFoundError)) throw err;
};

export const failure = (verb: string, err: unknown) =>
  instanceErrors.driverFailed(verb, isDriverError(err) ? err.message : '主机暂时不可用');
