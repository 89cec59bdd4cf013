import { INSTANCE_CONTAINER_PORTS } from '@gpu/shared';
import type { ContainerSpec, InstanceContainerInput, SshAccess } from './host-driver.ts';
import { DATA_MOUNT_PATH, dataVolumeNameOf } from './volumes.ts';

/** `NVIDIA_VISIBLE_DEVICES` for these GPUs; `void` hides every GPU from a container. */
export const visibleDevices = (gpuIndices: number[]) => (gpuIndices.length ? gpuIndices.join(',') : 'void');

/** The container name of an instance; unique per host because instance ids are. */
export const containerNameOf = (instanceId: number) => `gpu-inst-${instanceId}`;

/**
 * Processes and threads an instance may run, per GPU: data loaders (a worker process per core,
 * each with its threads), JupyterLab and its kernels fit many times over, a fork bomb does not,
 * and a host's process table (pid_max is 32768 on older kernels) outlasts its instances.
 */
export const PIDS_PER_GPU = 4096;

/**
 * A container with no GPU (no-GPU mode, 无卡模式, issue 30) gets a fixed small share, like
 * AutoDL's (half a core there; whole cores here, as the simulated host records them): enough to
 * copy data and install packages, not to train. Its price is the region's.
 */
export const NO_GPU_SHARE = { cpus: 1, memoryGb: 2 } as const;

/**
 * The container spec of an instance on a host whose GPUs and ports the platform allocates (the
 * docker and simulated drivers' `containerSpec`): allocated GPUs and ports (SSH on
 * the first, JupyterLab on the second, the user's extra ports after them), CPU and memory per
 * GPU from the SKU (NO_GPU_SHARE without GPUs) and processes per GPU (at least one GPU's worth), the system disk as the root
 * file system, the data disk as the instance's data volume at DATA_MOUNT_PATH (it outlives the
 * container), and in the
 * environment the root password (ROOT_PASSWORD), JupyterLab's own token (JUPYTER_TOKEN) and
 * the SSH access (`sshEnv`).
 */
export function buildInstanceContainerSpec(input: InstanceContainerInput): ContainerSpec {
  if (input.ports.length < INSTANCE_CONTAINER_PORTS.length)
    throw new Error('an instance needs a port per exposed port');
  const units = Math.max(input.gpuIndices.length, 1);
  return {
    name: containerNameOf(input.instanceId),
    image: input.image,
    instanceId: input.instanceId,
    userId: input.userId,
    gpuIndices: input.gpuIndices,
    ports: [
      ...INSTANCE_CONTAINER_PORTS.map((containerPort, i) => ({
        containerPort,
        hostPort: input.ports[i] as number,
      })),
      ...(input.extraPorts ?? []).map(({ containerPort, hostPort }) => ({ containerPort, hostPort })),
    ],
    ...(input.gpuIndices.length === 0
      ? NO_GPU_SHARE
      : {
          cpus: input.sku.cpuPerGpu > 0 ? input.sku.cpuPerGpu * units : undefined,
          memoryGb: input.sku.memoryPerGpuGb > 0 ? input.sku.memoryPerGpuGb * units : undefined,
        }),
    pidsLimit: PIDS_PER_GPU * units,
    diskGb: input.sku.systemDiskGb || undefined,
    dataVolume: {
      name: dataVolumeNameOf(input.instanceId),
      mountPath: DATA_MOUNT_PATH,
      ...(input.sku.dataDiskGb > 0 ? { sizeGb: input.sku.dataDiskGb } : {}),
    },
    env: { ROOT_PASSWORD: input.rootPassword, JUPYTER_TOKEN: input.jupyterToken, ...sshEnv(input.ssh) },
  };
}

/**
 * The image contract for SSH access, read at the container's start like ROOT_PASSWORD: the
 * owner's public keys, one per line, for /root/.ssh/authorized_keys, and `yes`/`no` for sshd's
 * PasswordAuthentication. Drivers that can (installSshAccess) also write both at every start.
 */
export function sshEnv(ssh: SshAccess | undefined): Record<string, string> {
  return {
    SSH_AUTHORIZED_KEYS: (ssh?.authorizedKeys ?? []).join('\n'),
    SSH_PASSWORD_AUTH: ssh?.passwordAuth === false ? 'no' : 'yes',
  };
}
