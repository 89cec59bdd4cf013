/**
 * Clone (issue 30): a new instance from another's system disk and data volume. The source's
 * secrets stay with the source: the clone gets its own root password, JupyterLab token and SSH
 * access, so none of the source's is carried in the committed image's environment.
 */

/** Environment variables that hold an instance's secrets or its owner's SSH access. */
export const isCloneSecretEnv = (key: string) =>
  key === 'ROOT_PASSWORD' || key === 'JUPYTER_TOKEN' || key.startsWith('SSH_');
