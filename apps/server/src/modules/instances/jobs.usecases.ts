import type { InstanceStatus } from '@gpu/shared';
import type { InstanceDeps, ProvisionJobs } from './instances.deps.ts';
import { createInstancesRepository } from './instances.repository.ts';
import { driveTransition } from './lifecycle.usecases.ts';
import { provisionClaimed } from './provisioning.usecases.ts';

/**
 * Instance jobs: the driver half of create (provisioning.usecases.ts) and of power off, power on
 * and release (lifecycle.usecases.ts), never inside a request or a transaction.
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
 * Jobs one process drives at once. Kicks beyond it wait their turn in order: a burst of creates
 * answers its requests first instead of sharing the CPU with as many provisioning jobs (each job
 * waits on its engine most of the time, so a few at once keep every engine busy).
 */
export const JOB_CONCURRENCY = 8;

/** In-process kicks after commit; `drain` waits for those queued and in flight (tests, shutdown). */
export function createInstanceJobs(
  deps: () => InstanceDeps,
  onError: (err: unknown, instanceId: number) => void,
  concurrency = JOB_CONCURRENCY,
): ProvisionJobs {
  const queue: number[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const next = () => {
    while (inFlight.size < concurrency && queue.length > 0) {
      const instanceId = queue.shift() as number;
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
      queue.push(instanceId);
      next();
    },
    async drain() {
      while (inFlight.size > 0 || queue.length > 0) await Promise.all(inFlight);
    },
  };
}
