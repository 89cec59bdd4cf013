import type { Db } from '../../platform/db/client.ts';
import type { AuthUser } from '../auth/index.ts';
import { releaseOnHost } from './allocation.ts';
import { capabilitiesOf } from './drivers/capabilities.ts';
import { isDriverError } from './drivers/driver-errors.ts';
import type { ContainerSpec, CreateResult } from './drivers/host-driver.ts';
import type { HostDriverRegistry } from './drivers/registry.ts';
import { driverErrorToAppError, hostErrors } from './hosts.errors.ts';
import { gpuAvailability } from './hosts.models.ts';
import { createHostsRepository } from './hosts.repository.ts';
import type { DockerInstanceGateway } from './instance-gateway.ts';

export interface ContainerDeps {
  db: Db;
  hostDrivers: HostDriverRegistry;
}

/**
 * Creates an instance's container on its host (call after the allocating transaction commits)
 * and records on the host whether its storage driver enforces the disk size.
 * Driver errors stay typed (HostDriverError) so the caller can roll back or retry.
 */
export async function createInstanceContainer(
  deps: ContainerDeps,
  hostId: number,
  spec: ContainerSpec,
): Promise<CreateResult> {
  const repo = createHostsRepository({ db: deps.db });
  const host = await repo.find(hostId);
  if (!host) throw hostErrors.notFound();
  const result = await deps.hostDrivers.forHost(host).create(spec);
  if (spec.diskGb && host.diskLimitSupported !== result.diskLimitEnforced)
    await repo.set(hostId, { diskLimitSupported: result.diskLimitEnforced });
  return result;
}

/** GET /api/gpu/docker/gpus/available: a host's GPU ids, free and used (allocated or reserved). */
export async function gpuAvailabilityFor(
  { db }: { db: Db },
  visibleRegionIds: number[],
  q: { hostId?: number; totalGpu?: number },
) {
  const repo = createHostsRepository({ db });
  const host = q.hostId ? await repo.find(q.hostId) : await repo.firstLocalHost(visibleRegionIds);
  const visible = (id: number) => visibleRegionIds.length === 0 || visibleRegionIds.includes(id);
  if (!host || !capabilitiesOf(host.driver).localAllocation || !visible(host.regionId)) {
    throw q.hostId ? hostErrors.notFound() : hostErrors.noLocalHost();
  }
  return { hostId: host.id, ...gpuAvailability(await repo.gpus(host.id), q.totalGpu) };
}

/**
 * The reconcile task (everyone's, no userId): removes containers (by label) whose instance is
 * gone, on every local host that answers, and returns whatever GPUs and ports such an instance
 * still held, after its container is gone; then such instances' networks (docker: one per
 * instance) and data volumes. A host that cannot be reached is reported, not fatal.
 * `hostIds` limits the hosts visited (a customer's cleanup: only where they had instances).
 */
export async function cleanupOrphans(
  deps: ContainerDeps,
  instances: Pick<DockerInstanceGateway, 'liveInstanceIds'>,
  scope: { userId?: number; hostIds?: number[] },
) {
  const inUse = await createHostsRepository({ db: deps.db }).localHostsInUse();
  const localHosts = scope.hostIds ? inUse.filter((h) => scope.hostIds?.includes(h.id)) : inUse;
  const removed: { hostId: number; containerId: string; instanceId: number }[] = [];
  const failedHosts: { hostId: number; message: string }[] = [];
  const removedNetworks: { hostId: number; network: string; instanceId: number }[] = [];
  const removedVolumes: { hostId: number; volume: string; instanceId: number }[] = [];
  let checked = 0;
  for (const host of localHosts) {
    try {
      const driver = deps.hostDrivers.forHost(host);
      const mine = (await driver.list()).filter(
        (c) => (scope.userId === undefined || c.userId === scope.userId) && c.instanceId !== null,
      );
      checked += mine.length;
      const live = await instances.liveInstanceIds(mine.map((c) => c.instanceId as number));
      for (const c of mine) {
        const instanceId = c.instanceId as number;
        if (live.has(instanceId)) continue;
        await driver.remove(c.id).catch((e) => {
          if (!isDriverError(e, 'CONTAINER_NOT_FOUND')) throw e;
        });
        await deps.db.transaction((tx) => releaseOnHost(tx, { hostId: host.id, instanceId }));
        removed.push({ hostId: host.id, containerId: c.id, instanceId });
      }
      // Networks of instances that are gone (a crash between network and container, or after
      // the container went): containers first, so none is still attached.
      if (driver.listNetworks && driver.removeNetwork) {
        const nets = (await driver.listNetworks()).filter(
          (n) => (scope.userId === undefined || n.userId === scope.userId) && n.instanceId !== null,
        );
        const liveNets = await instances.liveInstanceIds(nets.map((n) => n.instanceId as number));
        for (const n of nets) {
          if (liveNets.has(n.instanceId as number)) continue;
          await driver.removeNetwork(n.id);
          removedNetworks.push({ hostId: host.id, network: n.name, instanceId: n.instanceId as number });
        }
      }
      // Data volumes of instances that are gone (released: the release job removes it, this
      // catches one it could not), never one whose instance still lives.
      if (driver.listVolumes && driver.removeVolume) {
        const vols = (await driver.listVolumes()).filter(
          (v) => (scope.userId === undefined || v.userId === scope.userId) && v.instanceId !== null,
        );
        const liveVols = await instances.liveInstanceIds(vols.map((v) => v.instanceId as number));
        for (const v of vols) {
          if (liveVols.has(v.instanceId as number)) continue;
          await driver.removeVolume(v.name);
          removedVolumes.push({ hostId: host.id, volume: v.name, instanceId: v.instanceId as number });
        }
      }
    } catch (e) {
      if (!isDriverError(e)) throw e;
      failedHosts.push({ hostId: host.id, message: driverErrorToAppError(e).message });
    }
  }
  return { checked, removed, removedNetworks, removedVolumes, failedHosts };
}

/** What a customer reads of a host their cleanup could not reach: never the driver's own words. */
const CUSTOMER_CLEANUP_FAILED = '主机暂时无法清理，请稍后重试';

/**
 * POST /api/gpu/docker/cleanup (SPEC.md §7): one customer's orphans, on the hosts where that
 * customer has an ended instance only (a customer who never rented contacts no host), with
 * failures reported by a fixed sentence (no address, no engine message).
 */
export async function cleanupOrphansOf(
  deps: ContainerDeps,
  instances: Pick<DockerInstanceGateway, 'liveInstanceIds' | 'endedInstanceHostIds'>,
  user: AuthUser,
) {
  const hostIds = await instances.endedInstanceHostIds(user);
  if (hostIds.length === 0) return { checked: 0, removed: [], failedHosts: [] };
  const result = await cleanupOrphans(deps, instances, { userId: user.id, hostIds });
  return {
    ...result,
    failedHosts: result.failedHosts.map((f) => ({ hostId: f.hostId, message: CUSTOMER_CLEANUP_FAILED })),
  };
}
