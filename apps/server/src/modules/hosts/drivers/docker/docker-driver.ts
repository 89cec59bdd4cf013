import type { DockerSettings } from '@gpu/shared';
import { GIB } from '@gpu/shared/sizes';
import type Docker from 'dockerode';
import type { HostNetworks } from '../../../../platform/host-networks.ts';
import type { SecretBox } from '../../../../platform/secret-box.ts';
import { DRIVER_CAPABILITIES } from '../capabilities.ts';
import { ContainerConflictError } from '../driver-errors.ts';
import {
  type ContainerSpec,
  type ContainerState,
  type ContainerStatus,
  type ContainerSummary,
  type HostDriver,
  type HostRecord,
  LABELS,
  networkNameOf,
  type ProbeResult,
} from '../host-driver.ts';
import { buildInstanceContainerSpec } from '../instance-spec.ts';
import { declaredGpuInfo, instanceIdOf, labelsOf, userIdOf } from '../labels.ts';
import { cloneDocker } from './clone.ts';
import { dockerCloneTransfer } from './clone-transfer.ts';
import { connectDocker, dockerSettingsOf } from './connection.ts';
import {
  buildCreateOptions,
  dataVolumeOf,
  gpuIndicesOf,
  isolationOfInspected,
  portsOf,
  visibleDevicesOf,
} from './create-request.ts';
import {
  engineMessage,
  isStorageOptUnsupported,
  mapDockerError,
  probeFailureReason,
} from './docker-errors.ts';
import { dockerImages } from './images.ts';
import { dockerNetworks } from './networks.ts';
import { runNvidiaSmi } from './probe-container.ts';
import { dropCommitImage, recreateDocker } from './recreate.ts';
import { sampleDocker } from './sample.ts';
import { installSshAccessByExec } from './ssh-access.ts';
import { dockerVolumes } from './volumes.ts';

export interface DockerDriverDeps {
  /** Opens the engine client; tests point it at a recorded engine. */
  connect?: (settings: DockerSettings, host: HostRecord) => Docker;
  /** Opens the host's sealed secrets (TLS key, SSH key and password) when the client is made. */
  box?: SecretBox;
  /** HOST_NETWORKS, checked on every connection (the registry always passes it). */
  networks?: HostNetworks;
}

const ZERO_TIME = /^0001-01-01/;
const time = (t: string | undefined) => (t && !ZERO_TIME.test(t) ? new Date(t).toISOString() : null);

/** A GPU host reached through its Docker Engine API (DESIGN §7). */
export function createDockerDriver(host: HostRecord, deps: DockerDriverDeps = {}): HostDriver {
  const settings = dockerSettingsOf(host, deps.box);
  const docker = deps.connect ? deps.connect(settings, host) : connectDocker(settings, deps.networks);

  const call = async <T>(ctx: { op: string; image?: string; containerId?: string }, fn: () => Promise<T>) => {
    try {
      return await fn();
    } catch (err) {
      throw mapDockerError(err, ctx);
    }
  };
  /** Runtime presence as recorded by the last probe, else asked of the engine. */
  const hasNvidiaRuntime = async () => {
    if (host.nvidiaRuntime !== null) return host.nvidiaRuntime;
    const info = await call({ op: 'info' }, () => docker.info());
    return Boolean(info.Runtimes?.nvidia);
  };

  const networks = dockerNetworks(docker, host, call);
  const volumes = dockerVolumes(docker, host, call);
  const images = dockerImages(docker, call);
  const createContainer = async (spec: ContainerSpec) => {
    const nvidiaRuntime = await hasNvidiaRuntime();
    const wantDisk = Boolean(spec.diskGb) && host.diskLimitSupported !== false;
    const ctx = { op: 'create', image: spec.image };
    try {
      const options = buildCreateOptions(host, settings, spec, { nvidiaRuntime, storageOpt: wantDisk });
      const c = await docker.createContainer(options);
      return { containerId: c.id, diskLimitEnforced: wantDisk };
    } catch (err) {
      if (!(wantDisk && isStorageOptUnsupported(err))) throw mapDockerError(err, ctx);
    }
    // The storage driver cannot limit the disk: create without, and say so.
    const options = buildCreateOptions(host, settings, spec, { nvidiaRuntime, storageOpt: false });
    const c = await call(ctx, () => docker.createContainer(options));
    return { containerId: c.id, diskLimitEnforced: false };
  };

  const driver: HostDriver = {
    kind: 'docker',
    capabilities: DRIVER_CAPABILITIES.docker,

    async probe(): Promise<ProbeResult> {
      let version: Docker.DockerVersion;
      let info: { Runtimes?: Record<string, unknown>; NCPU?: number; MemTotal?: number };
      try {
        version = await docker.version();
        info = await docker.info();
      } catch (err) {
        return {
          reachable: false,
          gpus: [],
          warnings: [],
          error: probeFailureReason(err),
          detail: `probe: ${engineMessage(err)}`,
        };
      }
      const nvidiaRuntime = Boolean(info.Runtimes?.nvidia);
      const base = {
        reachable: true,
        engineVersion: version.Version,
        nvidiaRuntime,
        cpuCores: info.NCPU,
        memoryGb: info.MemTotal ? Math.round(info.MemTotal / GIB) : undefined,
      };
      const warnings: string[] = [];
      let detail: string | undefined;
      if (nvidiaRuntime) {
        try {
          const smi = await runNvidiaSmi(docker, settings.probeImage);
          if (smi.gpus.length > 0) {
            return { ...base, ...smi, gpuSource: 'nvidia-smi', warnings };
          }
          warnings.push('nvidia-smi 未报告任何 GPU，已使用主机设置中声明的 GPU');
        } catch (err) {
          // The engine's words go to the log only (they may carry what a remote put there).
          detail = `nvidia-smi: ${engineMessage(err)}`;
          warnings.push('nvidia-smi 探测失败，已使用主机设置中声明的 GPU');
        }
      } else {
        warnings.push(
          'Docker 引擎没有 NVIDIA 运行时，GPU 取自主机设置，容器仅通过 NVIDIA_VISIBLE_DEVICES 指定 GPU',
        );
      }
      return {
        ...base,
        gpus: declaredGpuInfo(host.id, settings.gpus, 'declared'),
        gpuSource: 'declared',
        warnings,
        ...(detail ? { detail } : {}),
      };
    },

    containerSpec: async (input) => buildInstanceContainerSpec(input),

    async create(spec: ContainerSpec) {
      const madeNetwork = await networks.ensure(spec);
      try {
        // The data volume outlives containers: a failed create leaves it for the next try.
        await volumes.ensure(spec);
        return await createContainer(spec);
      } catch (err) {
        // A network made for a container that never came is dropped; on a name conflict the
        // container of that name exists and the network is its own.
        if (madeNetwork && !(err instanceof ContainerConflictError)) {
          await networks.remove(networkNameOf(spec)).catch(() => undefined);
        }
        throw err;
      }
    },

    async start(id: string) {
      await call({ op: 'start', containerId: id }, async () => {
        try {
          await docker.getContainer(id).start();
        } catch (err) {
          if ((err as { statusCode?: number }).statusCode !== 304) throw err;
        }
      });
    },

    async stop(id: string) {
      await call({ op: 'stop', containerId: id }, async () => {
        try {
          await docker.getContainer(id).stop({ t: settings.stopTimeoutS });
        } catch (err) {
          if ((err as { statusCode?: number }).statusCode !== 304) throw err;
        }
      });
    },

    async remove(id: string) {
      const ctx = { op: 'remove', containerId: id };
      const c = await call(ctx, () => docker.getContainer(id).inspect());
      // `v` removes anonymous volumes only: the named data volume stays (removeVolume).
      await call(ctx, () => docker.getContainer(id).remove({ force: true, v: true }));
      // Its own network goes with it (named after the container, labelled as the platform's).
      await networks.removeOwn(c.Name.replace(/^\//, ''));
      await dropCommitImage(docker, call, c.Config.Image);
    },

    recreate(id, spec, opts) {
      return recreateDocker(docker, call, driver, id, spec, opts);
    },

    clone(sourceId, spec) {
      return cloneDocker(
        docker,
        call,
        { ensureVolume: volumes.ensure, create: driver.create, labels: (s) => labelsOf(host, s) },
        sourceId,
        spec,
      );
    },

    async installSshAccess(id, access) {
      await call({ op: 'exec', containerId: id }, () => installSshAccessByExec(docker, id, access));
    },

    sample: () =>
      call({ op: 'sample' }, () =>
        sampleDocker(docker, { probeImage: settings.probeImage, nvidiaRuntime: hasNvidiaRuntime }),
      ),
    listNetworks: networks.managed,
    removeNetwork: networks.remove,
    listVolumes: volumes.managed,
    removeVolume: volumes.remove,
    ...images,
    ...dockerCloneTransfer(docker, call, images, {
      ensureVolume: volumes.ensure,
      create: (s) => driver.create(s),
      labels: (s) => labelsOf(host, s),
    }),

    async inspect(id: string): Promise<ContainerState> {
      const c = await call({ op: 'inspect', containerId: id }, () => docker.getContainer(id).inspect());
      const labels = c.Config.Labels ?? {};
      return {
        id: c.Id,
        name: c.Name.replace(/^\//, ''),
        image: c.Config.Image,
        status: c.State.Status as ContainerStatus,
        running: c.State.Running,
        instanceId: instanceIdOf(labels),
        userId: userIdOf(labels),
        labels,
        gpuIndices: gpuIndicesOf(c.HostConfig.DeviceRequests, c.Config.Env),
        ports: portsOf(c.HostConfig.PortBindings as Parameters<typeof portsOf>[0]),
        startedAt: time(c.State.StartedAt),
        finishedAt: c.State.Running ? null : time(c.State.FinishedAt),
        exitCode: c.State.Running || !time(c.State.FinishedAt) ? null : c.State.ExitCode,
        isolation: isolationOfInspected(c as Parameters<typeof isolationOfInspected>[0]),
        dataVolume: dataVolumeOf(c.Mounts),
        visibleDevices: visibleDevicesOf(c.Config.Env),
      };
    },

    async list(): Promise<ContainerSummary[]> {
      const rows = await call({ op: 'list' }, () =>
        docker.listContainers({ all: true, filters: { label: [`${LABELS.managed}=true`] } }),
      );
      return rows.map(toSummary);
    },

    async findByName(name: string) {
      // The engine's name filter matches substrings (gpu-inst-1 would find gpu-inst-12): anchor it.
      const rows = await call({ op: 'list' }, () =>
        docker.listContainers({
          all: true,
          filters: { name: [`^/${escapeRegExp(name)}$`], label: [`${LABELS.managed}=true`] },
        }),
      );
      const row = rows.find((r) => r.Names.includes(`/${name}`));
      return row ? toSummary(row) : null;
    },
  };
  return driver;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const toSummary = (r: Docker.ContainerInfo): ContainerSummary => ({
  id: r.Id,
  name: (r.Names[0] ?? '').replace(/^\//, ''),
  image: r.Image,
  status: r.State as ContainerStatus,
  instanceId: instanceIdOf(r.Labels ?? {}),
  userId: userIdOf(r.Labels ?? {}),
  labels: r.Labels ?? {},
});
