/**
 * Clone (issue 30): a new instance from another's system disk and data volume. The source's
 * secrets stay with the source: the clone gets its own root password, JupyterLab token and SSH
 * access, so none of the source's is carried in the committed image's environment.
 */

/** Environment variables that hold an instance's secrets or its owner's SSH access. */
export const isCloneSecretEnv = (key: string) =>
  key === 'ROOT_PASSWORD' || key === 'JUPYTER_TOKEN' || key.startsWith('SSH_');

/** Where a clone to another host passes through IMAGE_REGISTRY (removed once it arrived). */
export const CLONE_TRANSFER_REPOSITORY = 'gpu-platform/clone-transfer';

/**
 * The two images a clone to another host travels as: the source's system disk (committed, its
 * secrets blanked) and its data volume packed into an image layer at CLONE_DATA_PATH. Named by
 * the clone's instance id, so a retried job overwrites its own and cleanup finds them.
 */
export interface CloneTransferRefs {
  system: string;
  data: string;
}

export function cloneTransferRefsOf(instanceId: number, registry: string): CloneTransferRefs {
  const repo = `${registry.replace(/\/+$/, '')}/${CLONE_TRANSFER_REPOSITORY}`;
  return { system: `${repo}:i${instanceId}-system`, data: `${repo}:i${instanceId}-data` };
}

/** Where the data image holds the volume's files (inside the image only, never in an instance). */
export const CLONE_DATA_PATH = '/.gpu-platform-clone-data';
