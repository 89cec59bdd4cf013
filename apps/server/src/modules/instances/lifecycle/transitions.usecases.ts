import type { InstanceStatus } from '@gpu/shared';
import { ContainerNotFoundError, dataVolumeNameOf, releaseOnHost } from '../../hosts/index.ts';
import { createCloneRepository } from '../create/clone.repository.ts';
import { saveImageJob } from '../images/save.usecases.ts';
import { type Actor, actorLabel, type InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { STOP_REASONS } from '../instances.models.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';
import type { TransitionJob, TransitionNotice } from '../instances.tables.ts';
import { chargeAccrued, closePeriod, settleForRelease } from '../metering/metering.ts';
import { containerToStart } from './bindings.usecases.ts';
import { driverFor, failure, finish, ignoreGone, type Tx } from './finish.usecases.ts';
import { resetJob } from './reset.usecases.ts';
import { installSshAccess } from './ssh-access.usecases.ts';

export type { Tx };

/**
 * What an admin action adds: `onBegin` runs in the transaction that starts the transition (the
 * audit row commits with it; a refusal writes nothing), `note` is the admin's reason, kept on
 * the instance's events and stop reason, `notice` the owner's notice, written with the end state
 * once the job succeeds. `inline`: a scheduled task (never a request) drives the transition
 * itself and gets the end state back.
 */
export interface ActionOptions {
  onBegin?: (tx: Tx, inst: InstanceRow) => Promise<void>;
  note?: string;
  notice?: (inst: InstanceRow) => TransitionNotice;
  inline?: boolean;
}
export const withNote = (text: string, note?: string) => (note ? `${text}：${note}` : text);

/**
 * Power off, power on and release are jobs, like create (provisioning.usecases.ts): the request
 * commits the transition (RUNNING → STOPPING, STOPPED → STARTING, RUNNING|STOPPED → RELEASING)
 * with its audit row, GPU bookkeeping and what the job needs (`transition_job`), kicks the job
 * after commit and answers the transitional instance at once. The job claims the instance (the
 * `claimed_until` lease shared with create), makes the driver call (idempotent: a container
 * already stopped, started or gone counts as done) and commits the end state under the row
 * lock, only if the transition is still the one it drives: a second worker taking over an
 * expired lease finds it done and changes nothing, so charges and frees happen once. A failed
 * driver call takes the instance back to where it was, as before.
 */
/** Moves `from` → `to` under the row lock, or answers why not. Returns the locked row. */
export async function begin(
  deps: InstanceDeps,
  id: number,
  from: InstanceStatus[],
  to: InstanceStatus,
  actor: Actor,
  action: string,
  job: (inst: InstanceRow) => TransitionJob,
  extra?: (tx: Tx, inst: InstanceRow, now: Date) => Promise<object | undefined>,
  opts: ActionOptions = {},
) {
  const now = deps.clock.now();
  const started = await deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const inst = await repo.lock(id);
    if (!inst) throw instanceErrors.notFound();
    if (!from.includes(inst.status)) throw instanceErrors.badState(inst.status, action);
    // Its disks are being copied into a clone (create/clone.usecases.ts): wait for the copy.
    if (inst.status === 'STOPPED' && (await createCloneRepository({ db: tx }).cloning(id)))
      throw instanceErrors.beingCloned(action);
    const transitionJob: TransitionJob = {
      ...job(inst),
      ...(opts.notice ? { notice: opts.notice(inst) } : {}),
    };
    const patch = {
      status: to,
      transitionAt: now,
      claimedUntil: null,
      transitionJob,
      ...((await extra?.(tx, inst, now)) ?? {}),
    };
    await opts.onBegin?.(tx, inst);
    await repo.update(id, patch);
    await repo.event(id, inst.status, to, actorLabel(actor), withNote(action, opts.note), now);
    return { ...inst, ...patch } as InstanceRow;
  });
  if (!opts.inline) {
    deps.jobs.kick(id);
    return started;
  }
  // A task: claim it as the job would (a sweep may have been quicker) and drive it here.
  const leaseEnd = new Date(deps.clock.now().getTime() + deps.provisionLeaseMs);
  const claimed = await createInstancesRepository(deps).claim(id, deps.clock.now(), leaseEnd);
  if (!claimed) return started;
  const { row, failed } = await driveTransition(deps, claimed);
  if (failed) throw failed;
  return row;
}

/**
 * The job half of a power off / power on / release, for an instance this worker has claimed:
 * the driver call, then the end state (or, when the driver failed, the state before).
 */
export async function driveTransition(
  deps: InstanceDeps,
  inst: InstanceRow,
): Promise<{ row: InstanceRow; failed?: Error }> {
  if (inst.status === 'STOPPING') return stopJob(deps, inst);
  if (inst.status === 'STARTING') return startJob(deps, inst);
  if (inst.status === 'RELEASING') return releaseJob(deps, inst);
  if (inst.status === 'RESETTING') return resetJob(deps, inst);
  if (inst.status === 'SAVING_IMAGE') return saveImageJob(deps, inst);
  throw new Error(`instance ${inst.id} is ${inst.status}: no transition to drive`);
}

/** The job half of a power off (`powerOff`, lifecycle.usecases.ts). */
async function stopJob(deps: InstanceDeps, inst: InstanceRow) {
  try {
    if (inst.containerId) await (await driverFor(deps, inst)).stop(inst.containerId);
  } catch (err) {
    if (!(err instanceof ContainerNotFoundError)) {
      const row = await finish(deps, inst, 'STOPPING', 'RUNNING', `关机失败：${(err as Error).message}`);
      return { row, failed: failure('关机', err) };
    }
  }
  const stopReason = inst.transitionJob?.stopReason ?? STOP_REASONS.user;
  const row = await finish(
    deps,
    inst,
    'STOPPING',
    'STOPPED',
    stopReason,
    async (tx, locked, now) => {
      // Lock order (ledger.ts): instance → host → account, so the host comes before the charge.
      if (locked.billingType === 'hourly') {
        // The container keeps its port bindings; its GPUs go back to the market.
        await releaseOnHost(tx, { hostId: locked.hostId, instanceId: locked.id, ports: false });
      }
      await chargeAccrued(tx, locked, now);
      const warning = locked.transitionJob?.warning ?? null;
      // Charged at no-GPU mode's rate up to now (above); the mode ends with the period.
      return { ...closePeriod(locked, now), stoppedAt: now, stopReason, warning, noGpuRate: null };
    },
    true,
  );
  return { row };
}

/** The job half of a power on (`powerOn`, lifecycle.usecases.ts). */
async function startJob(deps: InstanceDeps, inst: InstanceRow) {
  let containerId = inst.containerId;
  try {
    if (containerId) {
      const driver = await driverFor(deps, inst);
      // Ports or GPUs changed while it was off (other GPUs, no-GPU mode and back) take a
      // recreate (system disk and data kept).
      containerId = await containerToStart(deps, driver, inst);
      await driver.start(containerId);
      // The owner's keys and password switch as they are now (added or removed since create).
      await installSshAccess(deps, driver, inst, containerId);
    }
  } catch (err) {
    const row = await finish(
      deps,
      inst,
      'STARTING',
      'STOPPED',
      `开机失败：${(err as Error).message}`,
      async (tx, locked) => {
        if (locked.billingType === 'hourly')
          await releaseOnHost(tx, { hostId: locked.hostId, instanceId: locked.id, ports: false });
        return { noGpuRate: null };
      },
    );
    return { row, failed: failure('开机', err) };
  }
  const row = await finish(
    deps,
    inst,
    'STARTING',
    'RUNNING',
    '容器已启动',
    async (_tx, _locked, now) => ({
      containerId,
      runningSince: now,
      stoppedAt: null,
      stopReason: null,
      warning: null,
    }),
    true,
  );
  return { row };
}

/** The job half of a release (`release`, lifecycle.usecases.ts). */
async function releaseJob(deps: InstanceDeps, inst: InstanceRow) {
  const before = inst.transitionJob?.from ?? (inst.runningSince ? 'RUNNING' : 'STOPPED');
  try {
    const driver = await driverFor(deps, inst);
    if (inst.containerId) await driver.remove(inst.containerId).catch(ignoreGone);
    // The data volume outlived every recreate; it goes with the released instance.
    if (driver.capabilities.dataVolume) await driver.removeVolume?.(dataVolumeNameOf(inst.id));
  } catch (err) {
    const row = await finish(deps, inst, 'RELEASING', before, `释放失败：${(err as Error).message}`);
    return { row, failed: failure('释放', err) };
  }
  const row = await finish(
    deps,
    inst,
    'RELEASING',
    'RELEASED',
    inst.transitionJob?.reason ?? '释放实例',
    async (tx, locked, now) => {
      await releaseOnHost(tx, { hostId: locked.hostId, instanceId: locked.id });
      await settleForRelease(tx, locked, now);
      return { ...closePeriod(locked, now), releasedAt: now, warning: null, noGpuRate: null };
    },
    true,
  );
  return { row };
}
