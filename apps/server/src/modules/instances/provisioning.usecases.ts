import { createInstanceContainer } from '../hosts/containers.usecases.ts';
import { ContainerConflictError } from '../hosts/drivers/driver-errors.ts';
import type { HostDriver } from '../hosts/drivers/host-driver.ts';
import { buildInstanceContainerSpec, containerNameOf } from '../hosts/hosts.models.ts';
import { createHostsRepository } from '../hosts/hosts.repository.ts';
import { overseasContainerSpec } from '../vastai/rentals.usecases.ts';
import { failCreate } from './create.usecases.ts';
import type { InstanceDeps, ProvisionJobs } from './instances.deps.ts';
import { packageEnd } from './instances.models.ts';
import { createInstancesRepository, type InstanceRow } from './instances.repository.ts';

/**
 * Provisioning: the driver half of create, as a job (never inside the create request).
 *
 * - Trigger: the create usecase kicks it in-process right after its transaction commits; the
 *   `instances.provision` task sweeps every PROVISION_SWEEP_MS for CREATING instances nobody
 *   holds (a kick lost to a crash or restart). Tests call `jobs.drain()` or `runProvisioning`.
 * - One worker per instance, on any number of replicas: a worker claims the instance by a
 *   conditional update (`claimed_until`, a lease); a claim left to expire is taken over.
 * - Crash-safe: the container is named `gpu-inst-<id>` and labelled with the instance id, so a
 *   container made before a crash (its id never saved) is found and adopted, never doubled.
 */
export const PROVISION_SWEEP_MS = 10_000;
/** CREATING instances one sweep takes on, and how many it drives at once. */
const SWEEP_LIMIT = 100;
const SWEEP_PARALLEL = 4;

export type ProvisionOutcome = 'RUNNING' | 'FAILED';

/**
 * Claims a CREATING instance and takes it to RUNNING (adopting its container when one exists),
 * or to FAILED with everything refunded. Null when it is not CREATING or another worker holds it.
 */
export async function provisionInstance(deps: InstanceDeps, id: number): Promise<ProvisionOutcome | null> {
  const now = deps.clock.now();
  const inst = await createInstancesRepository(deps).claimCreating(
    id,
    now,
    new Date(now.getTime() + deps.provisionLeaseMs),
  );
  if (!inst) return null;
  let containerId: string;
  let ssh: SshAddress | null = null;
  try {
    const host = await createHostsRepository(deps).find(inst.hostId);
    if (!host) throw new Error(`host ${inst.hostId} of instance ${inst.id} is gone`);
    const driver = deps.hostDrivers.forHost(host);
    containerId = await containerFor(deps, driver, inst, host.driver);
    // Saved before start, so everything after a crash here knows the container.
    await createInstancesRepository(deps).saveContainerId(inst.id, containerId);
    await driver.start(containerId);
    // vast.ai gives each instance its own SSH address (start resolves once it runs).
    if (host.driver === 'vastai') ssh = (await driver.inspect(containerId)).sshAddress ?? null;
  } catch (err) {
    await failCreate(deps, inst, err);
    return 'FAILED';
  }
  return finishCreate(deps, inst, containerId, ssh);
}

type SshAddress = { host: string; port: number };

/** The instance's container: the one already made under its name, else a new one. */
async function containerFor(
  deps: InstanceDeps,
  driver: HostDriver,
  inst: InstanceRow,
  hostDriver: string,
): Promise<string> {
  const name = containerNameOf(inst.id);
  const adopt = async () => {
    const found = await driver.findByName(name);
    if (found && found.instanceId !== inst.id) throw new ContainerConflictError(`${name} is not ours`);
    return found?.id ?? null;
  };
  const existing = await adopt();
  if (existing) return existing;
  const sku = await createHostsRepository(deps).sku(inst.skuId);
  if (!sku) throw new Error(`SKU ${inst.skuId} of instance ${inst.id} is gone`);
  const spec =
    hostDriver === 'vastai'
      ? await overseasContainerSpec(deps, inst, deps.box.open(inst.rootPasswordEnc))
      : buildInstanceContainerSpec({
          instanceId: inst.id,
          userId: inst.userId,
          image: inst.image,
          gpuIndices: inst.gpuIndices,
          ports: [inst.sshPort, inst.jupyterPort].filter((p): p is number => p !== null),
          sku,
          rootPassword: deps.box.open(inst.rootPasswordEnc),
        });
  try {
    return (await createInstanceContainer(deps, inst.hostId, spec)).containerId;
  } catch (err) {
    // Another worker (an expired claim taken over) made it meanwhile: it is the same container.
    if (!(err instanceof ContainerConflictError)) throw err;
    const raced = await adopt();
    if (!raced) throw err;
    return raced;
  }
}

/** CREATING → RUNNING under the row lock; billing starts here (DESIGN §11). */
async function finishCreate(
  deps: InstanceDeps,
  inst: InstanceRow,
  containerId: string,
  ssh: SshAddress | null,
) {
  const now = deps.clock.now();
  const done = await deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(inst.id);
    if (locked?.status !== 'CREATING') return null;
    await repo.update(inst.id, {
      status: 'RUNNING',
      containerId,
      ...(ssh ? { sshHost: ssh.host, sshPort: ssh.port } : {}),
      runningSince: now,
      expiresAt: packageEnd(inst.billingType, inst.duration, now),
      transitionAt: null,
      claimedUntil: null,
    });
    await repo.event(inst.id, 'CREATING', 'RUNNING', 'system', '容器已启动', now);
    return 'RUNNING' as const;
  });
  deps.market.invalidate();
  return done;
}

/** The sweep: every CREATING instance nobody holds, a few at a time. */
export async function runProvisioning(deps: InstanceDeps) {
  const ids = await createInstancesRepository(deps).unclaimedCreating(deps.clock.now(), SWEEP_LIMIT);
  const outcomes: { id: number; to: ProvisionOutcome }[] = [];
  for (let i = 0; i < ids.length; i += SWEEP_PARALLEL) {
    await Promise.all(
      ids.slice(i, i + SWEEP_PARALLEL).map(async (id) => {
        const to = await provisionInstance(deps, id);
        if (to) outcomes.push({ id, to });
      }),
    );
  }
  return { checked: ids.length, outcomes };
}

/** In-process kicks after commit; `drain` waits for those in flight (tests, shutdown). */
export function createProvisionJobs(
  deps: () => InstanceDeps,
  onError: (err: unknown, instanceId: number) => void,
): ProvisionJobs {
  const inFlight = new Set<Promise<unknown>>();
  return {
    kick(instanceId: number) {
      const job = provisionInstance(deps(), instanceId)
        .catch((err) => onError(err, instanceId))
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
    },
    async drain() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
