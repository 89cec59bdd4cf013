import type { InstanceStatus } from '@gpu/shared';
import type { InstanceDeps, ProvisionJobs } from '../instances.deps.ts';
import { createInstancesRepository } from '../instances.repository.ts';
import { driveTransition } from '../lifecycle/transitions.usecases.ts';
import { provisionClaimed } from './provisioning.usecases.ts';

/**
 * Instance jobs: the driver half of create (provisioning.usecases.ts) and of power off, power on
 * and release (lifecycle/transitions.usecases.ts), never inside a request or a transaction.
 *
 * - Trigger: the usecase kicks the job in-process right after its transaction commits; the
 *   `instances.provision` task sweeps every JOB_SWEEP_MS for instances in a job state
 *   (CREATING, STOPPING, STARTING, RELEASING) nobody holds (a kick lost to a crash or restart).
 *   Tests call `jobs.drain()` or `runJobSweep`.
 * - One worker per instance, on any number of replicas: a worker claims the instance by a
 *   conditional update (`claimed_until`, a lease); a claim left to expire is taken over. Every
 *   end state is committed under the row lock only if the instance is still in the state the
 *   worker drove, so a takeover never charges, refunds or frees twice.
 */
export const JOB_SWEEP_MS = 10_000;
/** Instances one sweep takes on, and how many it drives at once. */
const SWEEP_LIMIT = 100;
const SWEEP_PARALLEL = 4;

/**
 * Claims the instance and drives its job to the end state; null when it is in no job state or
 * another worker holds it.
 */
export async function runInstanceJob(deps: InstanceDeps, id: number): Promise<InstanceStatus | null> {
  const now = deps.clock.now();
  const inst = await createInstancesRepository(deps).claim(
    id,
    now,
    new Date(now.getTime() + deps.provisionLeaseMs),
  );
  if (!inst) return null;
  if (inst.status === 'CREATING') return provisionClaimed(deps, inst);
  return (await driveTransition(deps, inst)).row.status;
}

/** The sweep: every instance in a job state that nobody holds, a few at a time. */
export async function runJobSweep(deps: InstanceDeps) {
  const ids = await createInstancesRepository(deps).unclaimed(deps.clock.now(), SWEEP_LIMIT);
  const outcomes: { id: number; to: InstanceStatus }[] = [];
  for (let i = 0; i < ids.length; i += SWEEP_PARALLEL) {
    await Promise.all(
      ids.slice(i, i + SWEEP_PARALLEL).map(async (id) => {
        const to = await runInstanceJob(deps, id);
        if (to) outcomes.push({ id, to });
      }),
    );
  }
  return { checked: ids.length, outcomes };
}

/**
 * Jobs one process drives at once. Kicks beyond it wait their turn in order (each job waits on
 * its engine most of the time, so a few at once keep every engine busy).
 */
export const JOB_CONCURRENCY = 8;
/**
 * A kicked job waits while this process is answering requests (they come first: the job's user
 * already has the answer), but never longer than this, so a steady stream of requests delays
 * provisioning by a second at most.
 */
export const JOB_YIELD_MAX_MS = 1000;

/** The requests in flight in this process (app/request-load.ts). */
export interface JobGate {
  readonly active: number;
  whenIdle(fn: () => void): void;
}

/** In-process kicks after commit; `drain` starts and waits for those queued and in flight (tests, shutdown). */
export function createInstanceJobs(
  deps: () => InstanceDeps,
  onError: (err: unknown, instanceId: number) => void,
  options: { concurrency?: number; gate?: JobGate; maxYieldMs?: number } = {},
): ProvisionJobs {
  const { concurrency = JOB_CONCURRENCY, gate, maxYieldMs = JOB_YIELD_MAX_MS } = options;
  const queue: { instanceId: number; kickedAt: number }[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let draining = false;
  let idleWait = false;
  let timer: NodeJS.Timeout | undefined;
  /** Whether the head of the queue may start now; else a wake-up is arranged (idle or its deadline). */
  const mayStart = () => {
    if (draining || !gate || gate.active === 0) return true;
    const waited = performance.now() - (queue[0]?.kickedAt ?? 0);
    if (waited >= maxYieldMs) return true;
    if (!idleWait) {
      idleWait = true;
      gate.whenIdle(() => {
        idleWait = false;
        next();
      });
    }
    if (!timer) {
      timer = setTimeout(() => {
        timer = undefined;
        next();
      }, maxYieldMs - waited);
      timer.unref();
    }
    return false;
  };
  const next = () => {
    while (inFlight.size < concurrency && queue.length > 0 && mayStart()) {
      const { instanceId } = queue.shift() as { instanceId: number };
      const job: Promise<unknown> = runInstanceJob(deps(), instanceId)
        .catch((err) => onError(err, instanceId))
        .finally(() => {
          inFlight.delete(job);
          next();
        });
      inFlight.add(job);
    }
  };
  return {
    kick(instanceId: number) {
      queue.push({ instanceId, kickedAt: performance.now() });
      next();
    },
    async drain() {
      draining = true;
      try {
        next();
        while (inFlight.size > 0 || queue.length > 0) {
          await Promise.all(inFlight);
          next();
        }
      } finally {
        draining = false;
      }
    },
  };
}
