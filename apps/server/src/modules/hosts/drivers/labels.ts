import type { DeclaredGpus } from '@gpu/shared';
import { type ContainerSpec, type GpuInfo, type HostRecord, LABELS } from './host-driver.ts';

/** The labels a spec puts on its container. */
export function labelsOf(host: HostRecord, spec: ContainerSpec): Record<string, string> {
  return {
    ...spec.labels,
    [LABELS.managed]: 'true',
    [LABELS.instanceId]: String(spec.instanceId),
    [LABELS.hostId]: String(host.id),
    ...(spec.userId !== undefined ? { [LABELS.userId]: String(spec.userId) } : {}),
  };
}

const numberLabel = (labels: Record<string, string>, key: string): number | null => {
  const v = labels[key];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
};

export const instanceIdOf = (labels: Record<string, string>) => numberLabel(labels, LABELS.instanceId);
export const userIdOf = (labels: Record<string, string>) => numberLabel(labels, LABELS.userId);

/** GPUs declared in a host's settings, with stable made-up UUIDs (`GPU-<source>-<host>-<index>`). */
export function declaredGpuInfo(hostId: number, gpus: DeclaredGpus | undefined, source: string): GpuInfo[] {
  if (!gpus) return [];
  return Array.from({ length: gpus.count }, (_, index) => ({
    index,
    uuid: `GPU-${source}-${String(hostId).padStart(6, '0')}-${String(index).padStart(2, '0')}`,
    model: gpus.model,
    memoryGb: gpus.memoryGb,
  }));
}
