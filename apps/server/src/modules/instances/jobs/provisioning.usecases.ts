import type { HostDriver, SshAddress } from '../../hosts/index.ts';
import {
  ContainerConflictError,
  containerNameOf,
  createHostsRepository,
  createInstanceContainer,
  DriverFailureError,
  OperationNotSupportedError,
} from '../../hosts/index.ts';
import { cloneAcrossHosts } from '../create/clone-transfer.usecases.ts';
import { failCreate } from '../create/failure.usecases.ts';
import { pullUserImageIfMissing } from '../images/pull.usecases.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { jupyterTokenEncOf, packageEnd } from '../instances.models.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';
import { installSshAccess, sshAccessFor } from '../lifecycle/ssh-access.usecases.ts';

/**
 * Provisioning: the driver half of create, run as an instance job (jobs.usecases.ts: the kick
 * after commit, the `claimed_until` lease, the sweep that takes over after a crash).
 * Crash-safe: the container is named `gpu-inst-<id>` and labelled with the instance id, so a
 * container made before a crash (its id never saved) is found and adopted, never doubled.
 */
export type ProvisionOutcome = 'RUNNING' | 'FAILED';

/**
 * Takes a CREATING instance this worker has claimed to RUNNING (adopting its container when one
 * exists), or to FAILED with everything refunded.
 */
export async function provisionClaimed(
  deps: InstanceDeps,
  inst: InstanceRow,
): Promise<ProvisionOutcome | null> {
  let containerId: string;
  let ssh: SshAddress | null = null;
  try {
    const host = await createHostsRepository(deps).find(inst.hostId);
    if (!host) throw new Error(`host ${inst.hostId} of instance ${inst.id} is gone`);
    const driver = deps.hostDrivers.forHost(host);
    containerId = await containerFor(deps, driver, inst);
    // Saved before start, so everything after a crash here knows the container.
    await createInstancesRepository(deps).saveContainerId(inst.id, containerId);
    await driver.start(containerId);
    await installSshAccess(deps, driver, inst, containerId);
    // Where the provider gives each instance its own SSH address (start resolves once it runs).
    if (driver.capabilities.ownSshAddress) ssh = (await driver.inspect(containerId)).sshAddress ?? null;
  } catch (err) {
    await failCreate(deps, inst, err);
    return 'FAILED';
  }
  return finishCreate(deps, inst, containerId, ssh);
}

/** The instance's container: the one already made under its name, else a new one. */
async function containerFor(deps: InstanceDeps, driver: HostDriver, inst: InstanceRow): Promise<string> {
  const name = containerNameOf(inst.id);
  const adopt = async () => {
    const found = await driver.findByName(name);
    if (found && found.instanceId !== inst.id) throw new ContainerConflictError(`${name} is not ours`);
    return found?.id ?? null;
  };
  const existing = await adopt();
  if (existing) return existing;
  await pullUserImageIfMissing(driver, inst.image);
  const spec = await instanceSpecOf(deps, driver, inst, inst.image);
  const cloneOf = inst.transitionJob?.cloneOf;
  try {
    if (cloneOf) return await cloneContainer(deps, driver, inst, cloneOf, spec);
    return (await createInstanceContainer(deps, inst.hostId, spec)).containerId;
  } catch (err) {
    // Another worker (an expired claim taken over) made it meanwhile: it is the same container.
    if (!(err instanceof ContainerConflictError)) throw err;
    const raced = await adopt();
    if (!raced) throw err;
    return raced;
  }
}

/**
 * A clone's container (create/clone.usecases.ts): made by the driver from the source instance's
 * container (its system disk committed, its data volume copied), on this instance's GPUs and
 * ports. On another host (with IMAGE_REGISTRY) the source's host exports both disks to the
 * registry and this one imports them (clone-transfer.usecases.ts).
 */
async function cloneContainer(
  deps: InstanceDeps,
  driver: HostDriver,
  inst: InstanceRow,
  sourceId: number,
  spec: Awaited<ReturnType<typeof instanceSpecOf>>,
): Promise<string> {
  const source = await createInstancesRepository(deps).find(sourceId);
  if (!source?.containerId)
    throw new DriverFailureError(`clone source ${sourceId} has no container`, '源实例的容器不存在');
  if (source.hostId !== inst.hostId)
    return cloneAcrossHosts(
      deps,
      driver,
      inst,
      { hostId: source.hostId, containerId: source.containerId },
      spec,
    );
  if (!driver.clone) throw new OperationNotSupportedError('该主机不支持克隆实例', `${driver.kind}: clone`);
  return (await driver.clone(source.containerId, spec)).containerId;
}

/**
 * The container spec of an instance from `image` (create, and a reset's new container). The
 * driver makes it: a container engine's from the allocated GPUs and ports, a provider's with
 * what it rents.
 */
export async function instanceSpecOf(
  deps: InstanceDeps,
  driver: HostDriver,
  inst: InstanceRow,
  image: string,
) {
  const sku = await createHostsRepository(deps).sku(inst.skuId);
  if (!sku) throw new Error(`SKU ${inst.skuId} of instance ${inst.id} is gone`);
  return driver.containerSpec({
    instanceId: inst.id,
    userId: inst.userId,
    image,
    // No-GPU mode (issue 30) runs without any; `gpuIndices` stays what a later power on prefers.
    gpuIndices: inst.noGpuRate === null ? inst.gpuIndices : [],
    ports: [inst.sshPort, inst.jupyterPort].filter((p): p is number => p !== null),
    extraPorts: inst.extraPorts,
    sku,
    rootPassword: deps.box.open(inst.rootPasswordEnc),
    jupyterToken: deps.box.open(jupyterTokenEncOf(inst)),
    ssh: await sshAccessFor(deps, inst),
  });
}

/** CREATING → RUNNING under the row lock; billing starts here (DESIGN §11). */
async function finishCreate(
  deps: InstanceDeps,
  inst: InstanceRow,
  containerId: string,
  ssh: SshAddress | null,
) {
  const now = deps.clock.now();
  // Only if still CREATING (a takeover or a release may have moved it), in one statement.
  const moved = await createInstancesRepository(deps).transitionIf(
    inst.id,
    'CREATING',
    {
      containerId,
      ...(ssh ? { sshHost: ssh.host, sshPort: ssh.port } : {}),
      runningSince: now,
      expiresAt: packageEnd(inst.billingType, inst.duration, now),
      transitionAt: null,
      claimedUntil: null,
    },
    { to: 'RUNNING', actor: 'system', reason: '容器已启动', at: now },
  );
  const done = moved ? ('RUNNING' as const) : null;
  deps.market.invalidate();
  return done;
}
