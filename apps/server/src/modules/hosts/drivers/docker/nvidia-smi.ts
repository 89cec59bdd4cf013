import type { GpuInfo } from '../host-driver.ts';

/** Run in the one-shot probe container: one CSV line per GPU, then the CUDA version of the driver. */
export const NVIDIA_SMI_SCRIPT =
  'nvidia-smi --query-gpu=index,uuid,name,memory.total,driver_version --format=csv,noheader,nounits' +
  " && nvidia-smi | grep -o 'CUDA Version: [0-9.]*'";

/** `NVIDIA GeForce RTX 4090` → `RTX 4090`, `NVIDIA A100-SXM4-80GB` → `A100-SXM4-80GB`. */
export function normalizeGpuModel(name: string): string {
  return name
    .trim()
    .replace(/^NVIDIA\s+/i, '')
    .replace(/^GeForce\s+/i, '')
    .replace(/\s+/g, ' ');
}

export interface NvidiaSmiReport {
  gpus: GpuInfo[];
  driverVersion: string;
  cudaVersion: string;
}

/** Parses what NVIDIA_SMI_SCRIPT prints; memory comes in MiB and is reported in whole GB. */
export function parseNvidiaSmi(output: string): NvidiaSmiReport {
  const gpus: GpuInfo[] = [];
  let driverVersion = '';
  for (const line of output.split(/\r?\n/)) {
    const cols = line.split(',').map((c) => c.trim());
    if (cols.length !== 5 || !/^\d+$/.test(cols[0] ?? '') || !/^\d+(\.\d+)?$/.test(cols[3] ?? '')) continue;
    const [index, uuid, name, memoryMib, driver] = cols as [string, string, string, string, string];
    gpus.push({
      index: Number(index),
      uuid,
      model: normalizeGpuModel(name),
      memoryGb: Math.round(Number(memoryMib) / 1024),
    });
    driverVersion ||= driver;
  }
  const cuda = /CUDA Version:\s*([\d.]+)/.exec(output);
  return { gpus: gpus.sort((a, b) => a.index - b.index), driverVersion, cudaVersion: cuda?.[1] ?? '' };
}

/** The per-GPU figures a monitoring sample needs, one CSV line per GPU of the host. */
export const GPU_QUERY_COMMAND = [
  'nvidia-smi',
  '--query-gpu=index,uuid,utilization.gpu,memory.used,memory.total',
  '--format=csv,noheader,nounits',
];

export interface GpuReading {
  index: number;
  uuid: string;
  util: number;
  memUsedMib: number;
  memTotalMib: number;
}

/** `[N/A]`, `[Not Supported]` (MIG, some boards) and anything unreadable count as 0. */
const figure = (v: string | undefined) => {
  const n = Number(v);
  return v !== undefined && /^\d+(\.\d+)?$/.test(v) && Number.isFinite(n) ? n : 0;
};

/** Parses GPU_QUERY_COMMAND's output; lines that are not a GPU (warnings, blanks) are skipped. */
export function parseGpuQuery(output: string): GpuReading[] {
  const gpus: GpuReading[] = [];
  for (const line of output.split(/\r?\n/)) {
    const cols = line.split(',').map((c) => c.trim());
    if (cols.length !== 5 || !/^\d+$/.test(cols[0] ?? '')) continue;
    gpus.push({
      index: Number(cols[0]),
      uuid: cols[1] ?? '',
      util: Math.min(100, Math.round(figure(cols[2]))),
      memUsedMib: Math.round(figure(cols[3])),
      memTotalMib: Math.round(figure(cols[4])),
    });
  }
  return gpus.sort((a, b) => a.index - b.index);
}
