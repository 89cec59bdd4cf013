/**
 * The data volume of an instance (issue 30): a disk that outlives its container, so a recreate
 * (reset system, change image) keeps what the user put under DATA_MOUNT_PATH. Made with the
 * container, kept when the container is removed for a recreate, removed with the released
 * instance (the release job, and cleanup of instances that are gone).
 */

/** Where every instance finds its data volume (README, console's 连接 drawer). */
export const DATA_MOUNT_PATH = '/root/data';

/** The data volume of an instance; unique per host because instance ids are. */
export const dataVolumeNameOf = (instanceId: number) => `gpu-data-${instanceId}`;

/** The data volume a container mounts. */
export interface DataVolumeSpec {
  name: string;
  mountPath: string;
  /** GB from the SKU: enforced where the engine can (XFS project quota), else only recorded. */
  sizeGb?: number;
}

/** A data volume the platform made, from its labels. */
export interface VolumeSummary {
  name: string;
  instanceId: number | null;
  userId: number | null;
  /** The size asked for, as recorded on the volume; null when none was asked. */
  sizeGb: number | null;
}

/** The data volume mounted in an inspected container. */
export interface MountedVolume {
  name: string;
  mountPath: string;
}

export interface RecreateOptions {
  /**
   * Keep the system disk's changes: commit the old container to an image and make the new one
   * from it. Without it the new container starts from `spec.image` as new (reset system).
   */
  keepSystemDisk: boolean;
}

/** The repository of the images a recreate commits; the driver removes them when unused. */
export const COMMIT_REPOSITORY = 'gpu-platform/commit';
export const isCommitImage = (image: string) => image.startsWith(`${COMMIT_REPOSITORY}:`);

/** The name an old container takes while its replacement is made (so the name is free). */
export const replacedNameOf = (name: string, at: number) => `${name}-replaced-${at.toString(36)}`;
