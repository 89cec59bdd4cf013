import { type ContainerSpec, containerNameOf, type HostDriver } from '../../hosts/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import type { InstanceRow } from '../instances.repository.ts';
import { instanceSpecOf } from '../jobs/provisioning.usecases.ts';

/** What a container is bound to that only a recreate changes: its ports and its GPUs. */
const bindingsOf = (ports: ContainerSpec['ports'], gpuIndices: number[]) =>
  `${ports
    .map((p) => `${p.containerPort}:${p.hostPort}`)
    .sort()
    .join(',')}|${[...gpuIndices].sort((a, b) => a - b).join(',')}`;

/**
 * The container a power on starts. Extra ports are changed while the instance is off (`PUT
 * …/ports`), a power on may move it to other GPUs (`gpus=any`), and a container's port and GPU
 * bindings are fixed at create: where the host can recreate (docker, simulated) and they differ
 * from the instance's, the container is recreated first, keeping its system disk and data volume. A recreate cut short by a crash left the new
 * container under the instance's name: it is the one to start.
 */
export async function containerToStart(
  deps: InstanceDeps,
  driver: HostDriver,
  inst: InstanceRow,
): Promise<string> {
  const current = inst.containerId as string;
  if (!driver.capabilities.recreate) return current;
  const found = await driver.findByName(containerNameOf(inst.id));
  const id = found?.id ?? current;
  const spec = await instanceSpecOf(deps, driver, inst, inst.image);
  const state = await driver.inspect(id);
  if (bindingsOf(state.ports, state.gpuIndices) === bindingsOf(spec.ports, spec.gpuIndices)) return id;
  return (await driver.recreate(id, spec, { keepSystemDisk: true })).containerId;
}
