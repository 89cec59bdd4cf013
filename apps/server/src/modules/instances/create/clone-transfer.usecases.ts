import {
  type ContainerSpec,
  cloneTransferRefsOf,
  createHostsRepository,
  DriverFailureError,
  type HostDriver,
  OperationNotSupportedError,
} from '../../hosts/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';

/**
 * A clone placed on another host than its source's (provisioning's part, create/clone.usecases.ts
 * chose the host): the source's host exports the system disk and the data volume as two images to
 * IMAGE_REGISTRY, the target's host imports them into the clone's container and new volume. The
 * temporary images are removed from both hosts and the registry whatever happens, so neither a
 * clone that failed (refunded by failCreate) nor one that ran leaves a copy of the source's disks.
 */
export async function cloneAcrossHosts(
  deps: InstanceDeps,
  target: HostDriver,
  inst: InstanceRow,
  source: { hostId: number; containerId: string },
  spec: ContainerSpec,
): Promise<string> {
  if (!deps.imageRegistry)
    throw new DriverFailureError(
      'clone to another host without IMAGE_REGISTRY',
      '平台未配置镜像仓库，无法克隆到其他主机',
    );
  const host = await createHostsRepository(deps).find(source.hostId);
  if (!host) throw new DriverFailureError(`clone source host ${source.hostId} is gone`, '源实例的主机不存在');
  const from = deps.hostDrivers.forHost(host);
  if (!from.exportClone || !target.importClone)
    throw new OperationNotSupportedError(
      '该主机不支持跨主机克隆',
      `${from.kind} → ${target.kind}: clone transfer`,
    );
  const refs = cloneTransferRefsOf(inst.id, deps.imageRegistry);
  try {
    const exported = await from.exportClone(source.containerId, refs, spec);
    return (await target.importClone(refs, spec, exported)).containerId;
  } finally {
    await dropCloneTransfer([from, target], refs);
  }
}

/** Removes a clone's transfer images from these hosts and the registry; each step best effort. */
export async function dropCloneTransfer(drivers: HostDriver[], refs: { system: string; data: string }) {
  const quietly = (p: Promise<void> | undefined) => p?.catch(() => undefined);
  for (const ref of [refs.system, refs.data]) {
    for (const d of drivers) await quietly(d.removeImage?.(ref));
    await quietly(drivers[0]?.unpublishImage?.(ref));
  }
}

/**
 * A clone that failed (failCreate): its transfer images, if a crash or a takeover left any, go
 * from its host, its source's host and the registry. Nothing when it was a same-host clone.
 */
export async function dropCloneTransferOf(deps: InstanceDeps, inst: InstanceRow) {
  const sourceId = inst.transitionJob?.cloneOf;
  if (!sourceId || !deps.imageRegistry) return;
  const source = await createInstancesRepository(deps).find(sourceId);
  if (!source || source.hostId === inst.hostId) return;
  const hostsRepo = createHostsRepository(deps);
  const drivers: HostDriver[] = [];
  for (const hostId of [source.hostId, inst.hostId]) {
    const host = await hostsRepo.find(hostId);
    if (host) drivers.push(deps.hostDrivers.forHost(host));
  }
  await dropCloneTransfer(drivers, cloneTransferRefsOf(inst.id, deps.imageRegistry));
}
