import type { DockerInstance } from '@gpu/shared';
import type { AuthUser } from '../auth/index.ts';
import type { DockerInstanceGateway } from '../hosts/index.ts';
import type { InstanceDeps } from './instances.deps.ts';
import { instanceErrors } from './instances.errors.ts';
import { createInstancesRepository, type InstanceListed } from './instances.repository.ts';
import { powerOff, powerOn, release } from './lifecycle/lifecycle.usecases.ts';

const toDocker = (i: InstanceListed): DockerInstance => ({
  id: i.id,
  name: i.name,
  status: i.status,
  hostId: i.hostId,
  hostName: i.hostName,
  containerId: i.containerId,
  // No-GPU mode (issue 30): the container has none; gpuIndices are what a power on prefers.
  gpuIds: i.noGpuRate === null ? i.gpuIndices : [],
  sshPort: i.sshPort,
  jupyterPort: i.jupyterPort,
  publicAddress: i.publicAddress,
  image: i.image,
  createdAt: i.createdAt.toISOString(),
});

/**
 * The local-docker endpoints (SPEC.md §7 /gpu/docker/*) over the same instances and rules. A power
 * action answers the state it set, not wherever its job has got to since.
 */
export function createDockerGateway(deps: InstanceDeps): DockerInstanceGateway {
  const repo = createInstancesRepository(deps);
  const owned = async (user: AuthUser, id: number) => {
    const inst = await repo.findOwned(id, user.id, user.tenantId);
    if (!inst) throw instanceErrors.notFound();
    return inst;
  };
  return {
    async listForUser(user) {
      const { rows } = await repo.listForUser(user.id, user.tenantId, { page: 1, size: 500 });
      return rows.filter((r) => r.hostDriver === 'docker').map(toDocker);
    },
    liveInstanceIds: async (ids) => new Set(await repo.liveIds(ids)),
    endedInstanceHostIds: (user) => repo.endedInstanceHostIds(user.id, user.tenantId),
    async powerOff(user, id) {
      const inst = await owned(user, id);
      return toDocker({ ...inst, ...(await powerOff(deps, id, { kind: 'user', id: user.id }, 'user')) });
    },
    async powerOn(user, id) {
      const inst = await owned(user, id);
      return toDocker({ ...inst, ...(await powerOn(deps, id, { kind: 'user', id: user.id })) });
    },
    async release(user, id) {
      const inst = await owned(user, id);
      return toDocker({ ...inst, ...(await release(deps, id, { kind: 'user', id: user.id })) });
    },
  };
}
