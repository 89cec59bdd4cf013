import type { InstanceStatus } from '@gpu/shared';
import { formatYuan, unitsToYuan } from '@gpu/shared';
import { createBillingRepository } from '../../billing/billing.repository.ts';
import { allocateOnHost, releaseOnHost } from '../../hosts/allocation.ts';
import { ContainerNotFoundError, isDriverError } from '../../hosts/drivers/driver-errors.ts';
import { createHostsRepository } from '../../hosts/hosts.repository.ts';
import { type Actor, actorLabel, type InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { STOP_REASONS } from '../instances.models.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';
import type { TransitionJob } from '../instances.tables.ts';
import { chargeAccrued, closePeriod, settleForRelease } from '../metering/metering.ts';

type StopReason = keyof typeof STOP_REASONS;
type Tx = Parameters<Parameters<InstanceDeps['db']['transaction']>[0]>[0];

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
  notice?: (inst: InstanceRow) => { title: string; body: string };
  inline?: boolean;
}
const withNote = (text: string, note?: string) => (note ? `${text}：${note}` : text);

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
async function driverFor(deps: InstanceDeps, inst: InstanceRow) {
  const host = await createHostsRepository(deps).find(inst.hostId);
  if (!host) throw new Error(`host ${inst.hostId} of instance ${inst.id} is gone`);
  return deps.hostDrivers.forHost(host);
}

/** Moves `from` → `to` under the row lock, or answers why not. Returns the locked row. */
async function begin(
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

/** Ends a transition under the row lock, if it is still the one we started. */
async function finish(
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
    if (success && notice) await repo.notify({ userId: locked.userId, instanceId: locked.id, ...notice });
    return { ...locked, ...patch } as InstanceRow;
  });
  deps.market.invalidate();
  return done;
}

const failure = (verb: string, err: unknown) =>
  instanceErrors.driverFailed(verb, isDriverError(err) ? err.message : '主机暂时不可用');

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
  throw new Error(`instance ${inst.id} is ${inst.status}: no transition to drive`);
}

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
      return { ...closePeriod(locked, now), stoppedAt: now, stopReason, warning };
    },
    true,
  );
  return { row };
}

/**
 * Power on: STOPPED → STARTING → RUNNING. Pay-as-you-go needs an hour's cost available and its
 * GPUs again (the same indices: a container's GPUs cannot change); packages must not be expired.
 */
export async function powerOn(
  deps: InstanceDeps,
  id: number,
  actor: Actor,
  opts: ActionOptions = {},
): Promise<InstanceRow> {
  return begin(
    deps,
    id,
    ['STOPPED'],
    'STARTING',
    actor,
    '开机',
    () => ({}),
    async (tx, locked, now) => {
      if (locked.billingType === 'hourly') {
        const account = await createBillingRepository({ db: tx }).account(locked.userId);
        if (!account || account.available < locked.hourlyRate) {
          throw instanceErrors.insufficientForHour(formatYuan(unitsToYuan(locked.hourlyRate)));
        }
        // A vast.ai instance keeps its machine's GPUs while stopped: there is nothing to allocate.
        if ((await createHostsRepository({ db: tx }).find(locked.hostId))?.driver === 'vastai')
          return undefined;
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
        if (got.join(',') !== want.join(',')) throw instanceErrors.originalGpusTaken();
      } else if (locked.expiresAt && locked.expiresAt.getTime() <= now.getTime()) {
        throw instanceErrors.badState('STOPPED', '开机：包期已到期，请先续费');
      }
      return undefined;
    },
    opts,
  );
}

async function startJob(deps: InstanceDeps, inst: InstanceRow) {
  try {
    if (inst.containerId) await (await driverFor(deps, inst)).start(inst.containerId);
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
        return undefined;
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
    async (_tx, _locked, now) => ({ runningSince: now, stoppedAt: null, stopReason: null, warning: null }),
    true,
  );
  return { row };
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

async function releaseJob(deps: InstanceDeps, inst: InstanceRow) {
  const before = inst.transitionJob?.from ?? (inst.runningSince ? 'RUNNING' : 'STOPPED');
  try {
    if (inst.containerId) await (await driverFor(deps, inst)).remove(inst.containerId);
  } catch (err) {
    if (!(err instanceof ContainerNotFoundError)) {
      const row = await finish(deps, inst, 'RELEASING', before, `释放失败：${(err as Error).message}`);
      return { row, failed: failure('释放', err) };
    }
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
      return { ...closePeriod(locked, now), releasedAt: now, warning: null };
    },
    true,
  );
  return { row };
}

/** Charges the pay-as-you-go time accrued so far, under the row lock (`…/instances/:id/settle`). */
export async function settleNow(deps: InstanceDeps, id: number) {
  await deps.db.transaction(async (tx) => {
    const inst = await createInstancesRepository({ db: tx }).lock(id);
    if (inst) await chargeAccrued(tx, inst, deps.clock.now());
  });
}
