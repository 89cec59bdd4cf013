import { DriverFailureError } from '../driver-errors.ts';
import type { ContainerSpec, CreateResult } from '../host-driver.ts';
import type { createSimulatedRepository, SimulatedContainerRow } from './simulated.repository.ts';

/**
 * A clone on a simulated host (HostDriver.clone), as a container engine does it: the source
 * must be stopped; the new container's system disk starts with the source's files, its new data
 * volume with a copy of the source volume's files. Environment values are never stored (only
 * keys, from the clone's own spec), so no secret of the source can be carried.
 */
export async function cloneSimulated(
  d: {
    reach: () => Promise<void>;
    mayFail: (op: string) => void;
    find: (id: string) => Promise<SimulatedContainerRow>;
    make: (spec: ContainerSpec, files: Record<string, string>) => Promise<CreateResult>;
    repo: ReturnType<typeof createSimulatedRepository>;
  },
  sourceId: string,
  spec: ContainerSpec,
): Promise<CreateResult> {
  await d.reach();
  d.mayFail('clone');
  const source = await d.find(sourceId);
  if (source.state === 'running')
    throw new DriverFailureError(`clone source ${sourceId} is running`, '源实例需先关机才能克隆');
  const made = await d.make({ ...spec, image: source.image }, { ...source.files });
  if (spec.dataVolume && source.dataVolume) {
    const files = await d.repo.volumeFiles(source.dataVolume.name);
    if (files) await d.repo.setVolumeFiles(spec.dataVolume.name, { ...files });
  }
  return made;
}
