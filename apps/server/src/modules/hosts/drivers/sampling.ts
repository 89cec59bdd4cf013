/** One GPU as a monitoring sample sees it: the host's index, utilisation 0–100, memory in MiB. */
export interface GpuSample {
  index: number;
  util: number;
  memUsedMib: number;
  memTotalMib: number;
}

/**
 * What one running container of the platform uses now (`HostDriver.sample`). `gpus` are the
 * container's GPUs by host index; empty where the host cannot tell (no nvidia-smi). Sizes in
 * bytes; a limit the driver does not know is null (the platform fills it from the instance's SKU).
 */
export interface ContainerSample {
  containerId: string;
  instanceId: number;
  gpus: GpuSample[];
  cpuPercent: number;
  memUsedBytes: number;
  memLimitBytes: number | null;
  diskUsedBytes: number;
  diskLimitBytes: number | null;
}
