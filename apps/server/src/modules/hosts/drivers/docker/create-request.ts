import type { DockerSettings } from '@gpu/shared';
import { GIB } from '@gpu/shared/sizes';
import type Docker from 'dockerode';
import {
  type ContainerIsolation,
  type ContainerSpec,
  type HostRecord,
  isolationOf,
  type PortBinding,
} from '../host-driver.ts';
import { visibleDevices } from '../instance-spec.ts';
import { labelsOf } from '../labels.ts';
import type { MountedVolume } from '../volumes.ts';

/**
 * The body of POST /containers/create for an instance (DESIGN §7).
 * - GPUs: with the NVIDIA runtime, `DeviceRequests` naming the device ids (never `Count` with
 *   `DeviceIDs`); without it, only `NVIDIA_VISIBLE_DEVICES`. The variable is set in both cases,
 *   since CUDA images carry `NVIDIA_VISIBLE_DEVICES=all` and a host whose default runtime is
 *   nvidia would otherwise hand every GPU to a container that asked for none.
 * - Ports: `ExposedPorts` plus `PortBindings` from the host's pool (the engine ignores a binding
 *   for a port the container does not expose).
 * - Disk: `StorageOpt.size` only when asked to; the driver retries without it where unsupported.
 *   The data volume (made first, like the network) is mounted at its path.
 * - Isolation (isolationOf): a process limit, memory without extra swap, `no-new-privileges`,
 *   every capability dropped but what sshd and JupyterLab need as root, and the container's own
 *   bridge network (the driver makes it first), so no customer's container shares a network
 *   with another's.
 */
export function buildCreateOptions(
  host: HostRecord,
  settings: Pick<DockerSettings, 'bindAddress'>,
  spec: ContainerSpec,
  opts: { nvidiaRuntime: boolean; storageOpt: boolean },
): Docker.ContainerCreateOptions {
  const env = { ...spec.env, NVIDIA_VISIBLE_DEVICES: visibleDevices(spec.gpuIndices) };
  const exposed: Record<string, object> = {};
  const bindings: Record<string, { HostIp: string; HostPort: string }[]> = {};
  for (const p of spec.ports) {
    const key = `${p.containerPort}/tcp`;
    exposed[key] = {};
    const binding = { HostIp: p.hostIp ?? settings.bindAddress, HostPort: String(p.hostPort) };
    bindings[key] = [...(bindings[key] ?? []), binding];
  }
  const isolation = isolationOf(spec);
  const memory = isolation.memoryBytes ?? undefined;
  const [network] = isolation.networks as [string];
  return {
    name: spec.name,
    Image: spec.image,
    ...(spec.command ? { Cmd: spec.command } : {}),
    Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    Labels: labelsOf(host, spec),
    ExposedPorts: exposed,
    NetworkingConfig: { EndpointsConfig: { [network]: {} } },
    HostConfig: {
      NetworkMode: network,
      PortBindings: bindings,
      ...(opts.nvidiaRuntime && spec.gpuIndices.length > 0
        ? {
            DeviceRequests: [
              { Driver: 'nvidia', DeviceIDs: spec.gpuIndices.map(String), Capabilities: [['gpu']] },
            ],
          }
        : {}),
      ...(spec.cpus ? { NanoCpus: Math.round(spec.cpus * 1e9) } : {}),
      // Swap no larger than nothing: a container past its memory is killed, not paging the host.
      ...(memory ? { Memory: memory, MemorySwap: memory } : {}),
      PidsLimit: isolation.pidsLimit ?? undefined,
      SecurityOpt: ['no-new-privileges'],
      CapDrop: isolation.capDrop,
      CapAdd: isolation.capAdd,
      // PyTorch data loaders need more than the 64 MB default; shared memory counts as memory.
      ShmSize: memory ? Math.floor(memory / 2) : GIB,
      ...(opts.storageOpt && spec.diskGb ? { StorageOpt: { size: `${spec.diskGb}G` } } : {}),
      ...(spec.dataVolume
        ? { Mounts: [{ Type: 'volume', Source: spec.dataVolume.name, Target: spec.dataVolume.mountPath }] }
        : {}),
      Init: true,
      RestartPolicy: { Name: 'unless-stopped' },
    },
  };
}

/** Port bindings of an inspected container, in the driver's terms. */
export function portsOf(
  portBindings: Record<string, { HostIp?: string; HostPort?: string }[] | null> | undefined,
) {
  const out: PortBinding[] = [];
  for (const [key, list] of Object.entries(portBindings ?? {})) {
    const containerPort = Number.parseInt(key, 10);
    for (const b of list ?? []) {
      if (b.HostPort)
        out.push({ containerPort, hostPort: Number(b.HostPort), hostIp: b.HostIp || '0.0.0.0' });
    }
  }
  return out.sort((a, b) => a.containerPort - b.containerPort || a.hostPort - b.hostPort);
}

/** GPU indices of an inspected container: its device request, else its visible-devices variable. */
export function gpuIndicesOf(
  deviceRequests: { Driver?: string; DeviceIDs?: string[] }[] | null | undefined,
  env: string[] | null | undefined,
): number[] {
  const ids = deviceRequests?.find((r) => r.Driver === 'nvidia' && r.DeviceIDs?.length)?.DeviceIDs;
  const raw =
    ids ??
    env
      ?.find((e) => e.startsWith('NVIDIA_VISIBLE_DEVICES='))
      ?.split('=')[1]
      ?.split(',') ??
    [];
  return raw.filter((s) => /^\d+$/.test(s.trim())).map((s) => Number(s.trim()));
}

/** NVIDIA_VISIBLE_DEVICES in an inspected container's environment (the last one wins), if any. */
export function visibleDevicesOf(env: string[] | null | undefined): string | undefined {
  const entry = env?.filter((e) => e.startsWith('NVIDIA_VISIBLE_DEVICES=')).at(-1);
  return entry?.slice('NVIDIA_VISIBLE_DEVICES='.length);
}

/** The named volume mounted in an inspected container (its data volume), or null. */
export function dataVolumeOf(
  mounts: { Type?: string; Name?: string; Destination?: string }[] | null | undefined,
): MountedVolume | null {
  const m = mounts?.find((x) => x.Type === 'volume' && x.Name && x.Destination);
  return m ? { name: m.Name as string, mountPath: m.Destination as string } : null;
}

/** Capability names as the platform writes them: upper case, without `CAP_`, sorted. */
const capabilities = (list: string[] | null | undefined) =>
  (list ?? []).map((c) => c.toUpperCase().replace(/^CAP_/, '')).sort();

/** The isolation of an inspected container, in the driver's terms. */
export function isolationOfInspected(c: {
  HostConfig: {
    PidsLimit?: number | null;
    Memory?: number;
    SecurityOpt?: string[] | null;
    CapDrop?: string[] | null;
    CapAdd?: string[] | null;
  };
  NetworkSettings?: { Networks?: Record<string, unknown> | null };
}): ContainerIsolation {
  const h = c.HostConfig;
  return {
    pidsLimit: h.PidsLimit && h.PidsLimit > 0 ? h.PidsLimit : null,
    memoryBytes: h.Memory ? h.Memory : null,
    noNewPrivileges: (h.SecurityOpt ?? []).some((o) => /^no-new-privileges(?:[:=]true)?$/.test(o)),
    capDrop: capabilities(h.CapDrop),
    capAdd: capabilities(h.CapAdd),
    networks: Object.keys(c.NetworkSettings?.Networks ?? {}).sort(),
  };
}
