import type Docker from 'dockerode';
import { CLONE_DATA_PATH, type CloneTransferRefs } from '../clone.ts';
import { DriverFailureError } from '../driver-errors.ts';
import type { CloneTransferOps, ContainerSpec, CreateResult } from '../host-driver.ts';
import type { UserImageOps } from '../images.ts';
import { COMMIT_REPOSITORY } from '../volumes.ts';
import { cloneCopierNameOf, runCopier } from './clone.ts';
import { dataVolumeOf } from './create-request.ts';
import type { Call } from './recreate.ts';
import { dropCommitImage } from './recreate.ts';

const FROM = '/clone-from';
const TO = '/clone-to';

/** `repo:tag` split at the last colon after the last slash (a registry may carry a port). */
const splitRef = (ref: string) => {
  const at = ref.lastIndexOf(':');
  return { repo: ref.slice(0, at), tag: ref.slice(at + 1) };
};

/**
 * A clone to another docker host (clone.ts, CloneTransferOps), through IMAGE_REGISTRY: the data
 * volume travels as an image layer (a helper made from the system disk's commit copies the volume
 * to CLONE_DATA_PATH and is committed), so both disks go host → registry → host by the engines'
 * own push and pull (layers streamed, resumable, shared base layers sent once) and the platform
 * server never carries a byte of them.
 */
export function dockerCloneTransfer(
  docker: Docker,
  call: Call,
  images: UserImageOps,
  ops: {
    ensureVolume: (spec: ContainerSpec) => Promise<void>;
    create: (spec: ContainerSpec) => Promise<CreateResult>;
    labels: (spec: ContainerSpec) => Record<string, string>;
  },
): CloneTransferOps {
  const dropLocal = async (refs: CloneTransferRefs) => {
    await images.removeImage(refs.data);
    await images.removeImage(refs.system);
  };
  return {
    async exportClone(sourceId, refs, clone) {
      const source = await call({ op: 'inspect', containerId: sourceId }, () =>
        docker.getContainer(sourceId).inspect(),
      );
      if (source.State.Running)
        throw new DriverFailureError(`clone source ${sourceId} is running`, '源实例需先关机才能克隆');
      try {
        // commitImage blanks the platform's env values (the source's secrets) and its labels.
        await images.commitImage(sourceId, refs.system);
        const volume = dataVolumeOf(source.Mounts);
        if (volume) {
          const helper = await runCopier(docker, call, {
            // The clone's: two clones of one source at once never share a helper.
            name: `${clone.name}-clone-export`,
            image: refs.system,
            labels: ops.labels(clone),
            script: `mkdir -p ${CLONE_DATA_PATH} && cp -a ${FROM}/. ${CLONE_DATA_PATH}/`,
            mounts: [{ Type: 'volume', Source: volume.name, Target: FROM, ReadOnly: true }],
            what: volume.name,
            keep: true,
          });
          try {
            await images.commitImage(helper, refs.data);
          } finally {
            await docker
              .getContainer(helper)
              .remove({ force: true })
              .catch(() => undefined);
          }
        }
        await images.pushImage(refs.system);
        if (volume) await images.pushImage(refs.data);
        return { data: Boolean(volume) };
      } finally {
        await dropLocal(refs).catch(() => undefined);
      }
    },

    async importClone(refs, spec, opts) {
      // Under a local commit name: the clone's image then goes with its last container (remove),
      // as a same-host clone's does, and nothing on this host keeps the registry's reference.
      const local = `${COMMIT_REPOSITORY}:${spec.name}-${Date.now().toString(36)}`;
      try {
        await images.pullImage(refs.system);
        if (opts.data && spec.dataVolume) {
          await images.pullImage(refs.data);
          await ops.ensureVolume(spec);
          await runCopier(docker, call, {
            name: cloneCopierNameOf(spec.name),
            image: refs.data,
            labels: ops.labels(spec),
            script: `cp -a ${CLONE_DATA_PATH}/. ${TO}/`,
            mounts: [{ Type: 'volume', Source: spec.dataVolume.name, Target: TO }],
            what: refs.data,
          });
        }
        const { repo, tag } = splitRef(local);
        await call({ op: 'image tag', image: refs.system }, () =>
          docker.getImage(refs.system).tag({ repo, tag }),
        );
        try {
          return await ops.create({ ...spec, image: local });
        } catch (err) {
          await dropCommitImage(docker, call, local).catch(() => undefined);
          throw err;
        }
      } finally {
        await dropLocal(refs).catch(() => undefined);
      }
    },
  };
}
