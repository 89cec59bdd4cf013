import type { CloneTransferRefs } from '../clone.ts';
import { DriverFailureError } from '../driver-errors.ts';
import type { CloneTransferOps, ContainerSpec, CreateResult } from '../host-driver.ts';
import type { UserImageOps } from '../images.ts';
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

/**
 * A clone to another simulated host (CloneTransferOps), as the docker driver does it: the system
 * disk committed (env values blanked) and the data volume's files packed into a second image,
 * both pushed to the simulated registry and removed here; the target pulls both, fills the new
 * volume, makes the container from the system disk and removes what it pulled.
 */
export function simulatedCloneTransfer(d: {
  reach: () => Promise<void>;
  mayFail: (op: string) => void;
  find: (id: string) => Promise<SimulatedContainerRow>;
  make: (spec: ContainerSpec, files: Record<string, string>) => Promise<CreateResult>;
  repo: ReturnType<typeof createSimulatedRepository>;
  images: UserImageOps & { filesOf(ref: string): Promise<Record<string, string> | null> };
  putImage: (ref: string, files: Record<string, string>) => Promise<void>;
}): CloneTransferOps {
  const dropLocal = async (refs: CloneTransferRefs) => {
    await d.images.removeImage(refs.data);
    await d.images.removeImage(refs.system);
  };
  return {
    async exportClone(sourceId, refs) {
      await d.reach();
      d.mayFail('clone export');
      const source = await d.find(sourceId);
      if (source.state === 'running')
        throw new DriverFailureError(`clone source ${sourceId} is running`, '源实例需先关机才能克隆');
      try {
        await d.images.commitImage(sourceId, refs.system);
        const files = source.dataVolume ? await d.repo.volumeFiles(source.dataVolume.name) : null;
        if (files) await d.putImage(refs.data, { ...files });
        await d.images.pushImage(refs.system);
        if (files) await d.images.pushImage(refs.data);
        return { data: Boolean(files) };
      } finally {
        await dropLocal(refs).catch(() => undefined);
      }
    },

    async importClone(refs, spec, opts) {
      await d.reach();
      d.mayFail('clone import');
      try {
        await d.images.pullImage(refs.system);
        const data = opts.data ? spec.dataVolume : undefined;
        if (data) await d.images.pullImage(refs.data);
        const made = await d.make({ ...spec, image: refs.system }, {});
        if (data) {
          const files = await d.images.filesOf(refs.data);
          if (files) await d.repo.setVolumeFiles(data.name, { ...files });
        }
        return made;
      } finally {
        await dropLocal(refs).catch(() => undefined);
      }
    },
  };
}
