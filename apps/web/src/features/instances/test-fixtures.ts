import type { Instance } from '@gpu/shared/instances';

/** A powered-off pay-as-you-go A100 instance, as GET /api/gpu/instances lists it (web tests). */
export function instance(overrides: Partial<Instance> = {}): Instance {
  return { ...BASE, ...overrides };
}

const BASE: Instance = {
  id: 9,
  uuid: '9',
  name: 'nogpu-box',
  status: 'STOPPED',
  billingType: 'hourly',
  gpuName: 'A100 80GB',
  gpuCount: 1,
  regionName: '北京A区',
  hostName: 'bj-a-a100-01',
  image: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
  hourlyPrice: 6.82,
  packagePrice: null,
  duration: 1,
  charged: 1.2,
  createdAt: '2025-06-01T04:00:00.000Z',
  runningSince: null,
  expiresAt: null,
  stoppedAt: '2025-06-01T05:00:00.000Z',
  releasedAt: null,
  releaseAt: '2025-06-16T05:00:00.000Z',
  stopReason: '用户关机',
  warning: null,
  containerId: 'c-9',
  sshCommand: null,
  sshPassword: 'pw',
  sshPasswordAuth: true,
  jupyterUrl: null,
  jupyterToken: 'tok',
  dataMountPath: '/root/data',
  resettable: true,
  cloneable: true,
  imageSaveable: true,
  extraPorts: [],
  noGpu: false,
  noGpuPrice: 0.1,
};
