import type { ContainerSpec } from '../host-driver.ts';
import type { startRecordedEngine } from './recorded-engine.ts';

/** What the recorded-engine tests of the docker driver create, and the create body they read back. */
export type Engine = Awaited<ReturnType<typeof startRecordedEngine>>;
export type CreateBody = {
  Image: string;
  Env: string[];
  Labels: Record<string, string>;
  ExposedPorts: Record<string, object>;
  HostConfig: Record<string, unknown> & {
    DeviceRequests?: { Driver: string; DeviceIDs?: string[]; Count?: number; Capabilities: string[][] }[];
    PortBindings: Record<string, { HostIp: string; HostPort: string }[]>;
    StorageOpt?: Record<string, string>;
  };
};

export const spec: ContainerSpec = {
  name: 'gpu-inst-77',
  image: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
  instanceId: 77,
  userId: 5,
  gpuIndices: [2, 3],
  ports: [
    { containerPort: 22, hostPort: 30010 },
    { containerPort: 8888, hostPort: 30011 },
  ],
  cpus: 16,
  memoryGb: 64,
  diskGb: 80,
  env: { ROOT_PASSWORD: 'Zq8pW3nKx7' },
};
