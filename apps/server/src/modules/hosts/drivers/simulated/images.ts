import type { Db } from '../../../../platform/db/client.ts';
import { ContainerNotFoundError, ImageNotFoundError } from '../driver-errors.ts';
import { committedEnv, type ImageInfo, type UserImageOps } from '../images.ts';
import type { SimulatedContainerRow } from './simulated.repository.ts';
import {
  createSimulatedImagesRepository,
  SIMULATED_REGISTRY_HOST,
  type SimulatedImageRow,
} from './simulated-images.repository.ts';

/** A simulated image's size: a base system (1 GiB) plus the files the user added. */
export const SIMULATED_IMAGE_BASE_BYTES = 1024 ** 3;

const info = (r: SimulatedImageRow): ImageInfo => ({ ref: r.ref, sizeBytes: r.sizeBytes, env: r.env });

/**
 * User images on a simulated host (drivers/images.ts): a commit keeps the container's system
 * disk files and environment names (the simulated container keeps no values, and the platform's
 * variables are emptied as docker's commit does); push and pull copy the row to and from the
 * simulated registry.
 */
export function simulatedImages(
  db: Db,
  hostId: number,
  ops: {
    reach: () => Promise<void>;
    mayFail: (op: string) => void;
    container: (id: string) => Promise<SimulatedContainerRow | undefined>;
  },
): UserImageOps & {
  filesOf(ref: string): Promise<Record<string, string> | null>;
  /** An image of just these files on this host (a clone's data volume packed for transfer). */
  putFiles(ref: string, files: Record<string, string>): Promise<void>;
} {
  const repo = createSimulatedImagesRepository({ db });
  const copy = async (from: number, to: number, ref: string) => {
    const row = await repo.find(from, ref);
    if (!row) throw new ImageNotFoundError(ref);
    await repo.put({ ...row, hostId: to });
  };
  return {
    async commitImage(containerId, ref) {
      await ops.reach();
      ops.mayFail('commit');
      const c = await ops.container(containerId);
      if (!c) throw new ContainerNotFoundError(containerId);
      const bytes = Object.values(c.files).reduce((n, text) => n + Buffer.byteLength(text), 0);
      const row = {
        hostId,
        ref,
        files: { ...c.files },
        env: committedEnv(c.envKeys.map((k) => `${k}=`)),
        sizeBytes: SIMULATED_IMAGE_BASE_BYTES + bytes,
      };
      await repo.put(row);
      return info({ ...row, createdAt: new Date() });
    },
    async inspectImage(ref) {
      await ops.reach();
      const row = await repo.find(hostId, ref);
      return row ? info(row) : null;
    },
    async pushImage(ref, onProgress) {
      await ops.reach();
      ops.mayFail('push');
      await copy(hostId, SIMULATED_REGISTRY_HOST, ref);
      onProgress?.(1);
    },
    async pullImage(ref, onProgress) {
      await ops.reach();
      ops.mayFail('pull');
      await copy(SIMULATED_REGISTRY_HOST, hostId, ref);
      onProgress?.(1);
    },
    async removeImage(ref) {
      await ops.reach();
      await repo.delete(hostId, ref);
    },
    async unpublishImage(ref) {
      await ops.reach();
      await repo.delete(SIMULATED_REGISTRY_HOST, ref);
    },
    async putFiles(ref, files) {
      const bytes = Object.values(files).reduce((n, text) => n + Buffer.byteLength(text), 0);
      await repo.put({ hostId, ref, files, env: [], sizeBytes: bytes });
    },
    async filesOf(ref) {
      return (await repo.find(hostId, ref))?.files ?? null;
    },
  };
}
