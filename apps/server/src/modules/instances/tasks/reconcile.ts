import {
  ContainerNotFoundError,
  cleanupOrphans,
  createHostsRepository,
  releaseOnHost,
} from '../../hosts/index.ts';
import { createNoticesRepository } from '../../notices/index.ts';
import { freeIfContainerGone } from '../create/failure.usecases.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';
import { runInstanceJob } from '../jobs/jobs.usecases.ts';
import { driveTransition } from '../lifecycle/transitions.usecases.ts';
import { chargeAccrued, closePeriod, settleForRelease } from '../metering/metering.ts';

/** A transition older than this was cut short (crash, restart) and is finished or rolled back. */
export const STUCK_AFTER_MS = 2 * 60_000;

type Actual = 'running' | 'stopped' | 'missing';

async function actualState(deps: InstanceDeps, inst: InstanceRow): Promise<Actual> {
  if (!inst.containerId) return 'missing';
  const host = await createHostsRepository(deps).find(inst.hostId);
  if (!host) return 'missing';
  try {
    const s = await deps.hostDrivers.forHost(host).inspect(inst.containerId);
    return s.status === 'running' ? 'running' : 'stopped';
  } catch (err) {
    if (err instanceof ContainerNotFoundError) return 'missing';
    throw err;
  }
}

/**
 * Compares what the database wants with what the driver reports, for transitions that were
 * cut short: finishes them when the container got there, rolls them back when it did not; a
 * create goes back to its job (which adopts its container). A power off / on / release is
 * claimed first like a job (a live job's lease keeps reconcile away from it). Then frees what
 * failed or released instances still hold once their container is gone, and removes
 * containers labelled with instances the database no longer wants. Money moves only through
 * the same ledger keys as the normal path, so nothing is charged or refunded twice.
 */
export async function runReconcile(deps: InstanceDeps) {
  const now = deps.clock.now();
  const repo = createInstancesRepository(deps);
  const stuck = await repo.transitionalSince(new Date(now.getTime() - STUCK_AFTER_MS));
  const outcomes: { id: number; from: string; to: string }[] = [];
  for (const { id } of stuck) {
    const found = await repo.find(id);
    if (!found) continue;
    if (found.status === 'CREATING') {
      // The job's (claim-guarded): it adopts a container made before a crash.
      const to = await runInstanceJob(deps, id);
      if (to) outcomes.push({ id, from: 'CREATING', to });
      continue;
    }
    const inst = await repo.claim(id, now, new Date(now.getTime() + deps.provisionLeaseMs));
    if (!inst) continue; // a live job drives it
    let actual: Actual;
    try {
      actual = await actualState(deps, inst);
    } catch {
      continue; // host unreachable: try again next run
    }
    const to = await settle(deps, inst, actual);
    if (to) outcomes.push({ id, from: inst.status, to });
  }
  const freed = await freeLeftovers(deps);
  // Containers labelled with an instance the database no longer wants (crash between a create
  // and its rollback, a remove that failed): removed, and what they held given back.
  const orphans = await cleanupOrphans(
    deps,
    { liveInstanceIds: async (ids) => new Set(await repo.liveIds(ids)) },
    {},
  );
  deps.market.invalidate();
  return {
    checked: stuck.length,
    outcomes,
    freed,
    orphansRemoved: orphans.removed.map((r) => r.instanceId),
    orphanNetworksRemoved: orphans.removedNetworks.map((r) => r.network),
    orphanVolumesRemoved: orphans.removedVolumes.map((r) => r.volume),
  };
}

/**
 * Released or failed instances still holding GPUs or ports (their container could not be
 * removed then): once the container is confirmed gone, everything goes back.
 */
async function freeLeftovers(deps: InstanceDeps): Promise<number[]> {
  const repo = createInstancesRepository(deps);
  const freed: number[] = [];
  for (const id of await repo.finishedHolding()) {
    const inst = await repo.find(id);
    if (inst && (await freeIfContainerGone(deps, inst))) freed.push(id);
  }
  return freed;
}

async function settle(deps: InstanceDeps, inst: InstanceRow, actual: Actual): Promise<string | null> {
  if (inst.status === 'STOPPING' || inst.status === 'STARTING') {
    if (actual === 'running') {
      return move(deps, inst, 'RUNNING', (now) => (inst.runningSince ? {} : { runningSince: now }));
    }
    const job = inst.transitionJob;
    return move(
      deps,
      inst,
      'STOPPED',
      (now) => ({
        ...closePeriod(inst, now),
        stoppedAt: now,
        ...(job?.stopReason ? { stopReason: job.stopReason, warning: job.warning ?? null } : {}),
      }),
      true,
    );
  }
  // A reset finds its container by name: the job adopts what a recreate cut short made.
  if (inst.status === 'RESETTING' || inst.status === 'SAVING_IMAGE')
    return (await driveTransition(deps, inst)).row.status;
  if (inst.status === 'RELEASING') {
    // The container is still there: the release job removes it and finishes.
    if (actual !== 'missing') return (await driveTransition(deps, inst)).row.status;
    return move(
      deps,
      inst,
      'RELEASED',
      (now) => ({ ...closePeriod(inst, now), releasedAt: now }),
      true,
      true,
    );
  }
  return null;
}

const DONE: Partial<Record<string, string>> = {
  STOPPING: 'STOPPED',
  STARTING: 'RUNNING',
  RELEASING: 'RELEASED',
};

async function move(
  deps: InstanceDeps,
  inst: InstanceRow,
  to: 'RUNNING' | 'STOPPED' | 'RELEASED',
  patch: (now: Date) => object,
  charge = false,
  releaseAll = false,
) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(inst.id);
    if (!locked || locked.status !== inst.status) return null;
    // Lock order (ledger.ts): instance → host → account.
    if (releaseAll) await releaseOnHost(tx, { hostId: locked.hostId, instanceId: locked.id });
    else if (to === 'STOPPED' && locked.billingType === 'hourly') {
      await releaseOnHost(tx, { hostId: locked.hostId, instanceId: locked.id, ports: false });
    }
    if (charge && to === 'RELEASED') await settleForRelease(tx, locked, now);
    else if (charge) await chargeAccrued(tx, locked, now);
    await repo.update(locked.id, {
      status: to,
      transitionAt: null,
      claimedUntil: null,
      transitionJob: null,
      ...patch(now),
    });
    await repo.event(locked.id, locked.status, to, 'system', '对账：按主机实际状态完成中断的操作', now);
    // An admin's action that did get done: its owner is told, as when the job finishes it.
    const notice = locked.transitionJob?.notice;
    if (notice && to === DONE[locked.status]) {
      await createNoticesRepository({ db: tx }).notify({
        userId: locked.userId,
        instanceId: locked.id,
        ...notice,
      });
    }
    return to;
  });
}
