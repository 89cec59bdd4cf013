import { formatYuan, unitsToYuan } from '@gpu/shared';
import { isAppError } from '../../../platform/errors.ts';
import {
  allocateOnHost,
  capabilitiesOf,
  createHostsRepository,
  isUserImageRef,
  retakeGpus,
} from '../../hosts/index.ts';
import { createLedgerRepository } from '../../ledger/index.ts';
import { checkUserImageForCreate } from '../images/create-check.usecases.ts';
import type { Actor, InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { STOP_REASONS } from '../instances.models.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';
import type { TransitionJob } from '../instances.tables.ts';
import { chargeAccrued } from '../metering/metering.ts';
import { noGpuStart } from './no-gpu.usecases.ts';
import { createResetRepository } from './reset.repository.ts';
import { type ActionOptions, begin, type Tx, withNote } from './transitions.usecases.ts';

type StopReason = keyof typeof STOP_REASONS;

/**
 * Power off: RUNNING → STOPPING → (container stopped) → STOPPED. Pay-as-you-go is charged up
 * to the moment the container stopped and gives its GPUs back; packages keep theirs. If the
 * driver fails the instance goes back to RUNNING and keeps accruing: it is still running.
 */
export async function powerOff(
  deps: InstanceDeps,
  id: number,
  actor: Actor,
  why: StopReason,
  opts: ActionOptions = {},
): Promise<InstanceRow> {
  const job = () => ({
    stopReason: withNote(STOP_REASONS[why], opts.note),
    warning: why === 'arrears' || why === 'expired' ? STOP_REASONS[why] : null,
  });
  return begin(deps, id, ['RUNNING'], 'STOPPING', actor, '关机', job, undefined, opts);
}

/**
 * Power on: STOPPED → STARTING → RUNNING. Pay-as-you-go needs an hour's cost available and its
 * GPUs again: the same indices, or (`otherGpus`, the customer agreed) other idle GPUs of the host
 * where its driver can recreate the container on them (the job does, keeping system disk and
 * data); packages keep their GPUs and must not be expired. `noGpu` (无卡模式, issue 30): no GPU
 * at all, at its region's no-GPU price (no-gpu.usecases.ts); a normal power on ends that mode.
 */
export async function powerOn(
  deps: InstanceDeps,
  id: number,
  actor: Actor,
  opts: ActionOptions & { otherGpus?: boolean; noGpu?: boolean } = {},
): Promise<InstanceRow> {
  return begin(
    deps,
    id,
    ['STOPPED'],
    'STARTING',
    actor,
    opts.noGpu ? '无卡模式开机' : '开机',
    () => ({}),
    async (tx, locked, now) =>
      opts.noGpu
        ? noGpuStart(tx, locked)
        : { ...(await withGpus(tx, locked, now, opts.otherGpus === true)), noGpuRate: null },
    opts,
  );
}

/** A normal power on's checks and GPUs (`powerOn`), under the row lock. */
async function withGpus(tx: Tx, locked: InstanceRow, now: Date, otherGpus: boolean) {
  if (locked.billingType === 'hourly') {
    const account = await createLedgerRepository({ db: tx }).account(locked.userId);
    if (!account || account.available < locked.hourlyRate) {
      throw instanceErrors.insufficientForHour(formatYuan(unitsToYuan(locked.hourlyRate)));
    }
    // A provider's machine (vast.ai) keeps its GPUs while stopped: there is nothing to allocate.
    const host = await createHostsRepository({ db: tx }).find(locked.hostId);
    if (host && !capabilitiesOf(host.driver).localAllocation) return undefined;
    if (!otherGpus) {
      // Its own GPUs or none: another GPU locked here and given back would refuse a create.
      const own = await retakeGpus(tx, {
        hostId: locked.hostId,
        instanceId: locked.id,
        indices: locked.gpuIndices,
      }).catch(() => {
        throw instanceErrors.gpusTaken();
      });
      if (own.retaken) return undefined;
      throw own.idle >= locked.gpuCount ? instanceErrors.originalGpusTaken() : instanceErrors.gpusTaken();
    }
    let alloc: Awaited<ReturnType<typeof allocateOnHost>>;
    try {
      alloc = await allocateOnHost(tx, {
        hostId: locked.hostId,
        instanceId: locked.id,
        gpuCount: locked.gpuCount,
        portCount: 0,
        preferIndices: locked.gpuIndices,
      });
    } catch {
      throw instanceErrors.gpusTaken();
    }
    const got = alloc.gpus.map((g) => g.index).sort((a, b) => a - b);
    const want = [...locked.gpuIndices].sort((a, b) => a - b);
    if (got.join(',') !== want.join(',')) {
      if (!host || !capabilitiesOf(host.driver).recreate) throw instanceErrors.originalGpusTaken();
      // The job's recreate puts the container on these (containerToStart).
      return { gpuIndices: got };
    }
  } else if (locked.expiresAt && locked.expiresAt.getTime() <= now.getTime()) {
    throw instanceErrors.badState('STOPPED', '开机：包期已到期，请先续费');
  }
  return undefined;
}

/** Release: RUNNING or STOPPED → RELEASING → container removed → RELEASED; everything is given back. */
export async function release(
  deps: InstanceDeps,
  id: number,
  actor: Actor,
  reason = '释放实例',
  opts: ActionOptions = {},
): Promise<InstanceRow> {
  const job = (inst: InstanceRow): TransitionJob => ({
    reason,
    from: inst.status === 'RUNNING' ? 'RUNNING' : 'STOPPED',
  });
  return begin(deps, id, ['RUNNING', 'STOPPED'], 'RELEASING', actor, '释放', job, undefined, opts);
}

/**
 * Reset system / change image (重置系统 / 更换镜像, issue 30): STOPPED → RESETTING → STOPPED.
 * Only a powered-off instance (nothing runs, nothing accrues, its GPUs stay as they are): the
 * console asks to power off first. The job recreates the container from the instance's image
 * or the new one WITHOUT committing: the system disk starts anew, the data volume is kept. The
 * new image must be one the market allows for the instance's GPUs, as at create; hosts whose
 * driver cannot recreate (capabilities) refuse. Nothing is charged.
 */
export async function resetSystem(
  deps: InstanceDeps,
  id: number,
  actor: Actor,
  input: { image?: string },
  opts: ActionOptions = {},
): Promise<InstanceRow> {
  const action = input.image ? '更换镜像' : '重置系统';
  return begin(
    deps,
    id,
    ['STOPPED'],
    'RESETTING',
    actor,
    action,
    (inst) => ({ image: input.image ?? inst.image }),
    async (tx, locked) => {
      const host = await createHostsRepository({ db: tx }).find(locked.hostId);
      if (!host || !capabilitiesOf(host.driver).recreate) throw instanceErrors.resetUnsupported();
      const image = input.image ?? locked.image;
      // A user's saved image (我的镜像) is checked as a create checks it; the original one deleted
      // since is refused here, not left to fail in the job with nothing changed but a lost minute.
      if (isUserImageRef(image)) {
        await checkUserImageForCreate(tx, locked.userId, image, locked.hostId).catch((err) => {
          if (image === locked.image && isAppError(err) && err.code === 'images.not_found')
            throw instanceErrors.originalImageDeleted();
          throw err;
        });
      } else if (image !== locked.image) {
        if (!(await createResetRepository({ db: tx }).imageUsable(locked.skuId, image)))
          throw instanceErrors.imageUnavailable();
      }
      return undefined;
    },
    opts,
  );
}

/** Charges the pay-as-you-go time accrued so far, under the row lock (`…/instances/:id/settle`). */
export async function settleNow(deps: InstanceDeps, id: number) {
  await deps.db.transaction(async (tx) => {
    const inst = await createInstancesRepository({ db: tx }).lock(id);
    if (inst) await chargeAccrued(tx, inst, deps.clock.now());
  });
}
