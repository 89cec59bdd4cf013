import { randomBytes } from 'node:crypto';
import { type SimulatedSettings, simulatedSettingsSchema } from '@gpu/shared';
import type { Now } from '../../../../platform/clock.ts';
import type { Db } from '../../../../platform/db/client.ts';
import { DRIVER_CAPABILITIES } from '../capabilities.ts';
import {
  ContainerConflictError,
  ContainerNotFoundError,
  DriverFailureError,
  GpuUnavailableError,
  HostUnreachableError,
  ImageNotFoundError,
  PortInUseError,
} from '../driver-errors.ts';
import {
  type ContainerSpec,
  type ContainerState,
  type ContainerSummary,
  type GpuInfo,
  type HostDriver,
  type HostRecord,
  isolationOf,
  type ProbeResult,
} from '../host-driver.ts';
import { buildInstanceContainerSpec, visibleDevices } from '../instance-spec.ts';
import { declaredGpuInfo, instanceIdOf, labelsOf, userIdOf } from '../labels.ts';
import { type RecreateOptions, replacedNameOf } from '../volumes.ts';
import { cloneSimulated, simulatedCloneTransfer } from './clone.ts';
import { simulatedImages } from './images.ts';
import { simulatedSample } from './samples.ts';
import {
  createSimulatedRepository,
  type SimulatedContainerRow as Row,
  withSimulatedHostLock,
} from './simulated.repository.ts';

export interface SimulatedDeps {
  db: Db;
  now: Now;
  /** Decides injected failures; tests pass a fixed sequence. */
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

const DEFAULTS: SimulatedSettings = { latencyMs: 0, failureRate: 0, unreachable: false };
const SIMULATED_DRIVER_VERSION = '550.127.05';
const SIMULATED_CUDA_VERSION = '12.4';

/** Settings were validated when written; anything unreadable behaves like a healthy, fast host. */
export function simulatedSettingsOf(host: HostRecord): SimulatedSettings {
  const parsed = simulatedSettingsSchema.safeParse(host.settings ?? {});
  return parsed.success ? parsed.data : DEFAULTS;
}

const toSummary = (r: Row): ContainerSummary => ({
  id: r.id,
  name: r.name,
  image: r.image,
  status: r.state,
  instanceId: instanceIdOf(r.labels),
  userId: userIdOf(r.labels),
  labels: r.labels,
});

const toState = (r: Row): ContainerState => ({
  ...toSummary(r),
  running: r.state === 'running',
  gpuIndices: r.gpuIndices,
  ports: r.ports,
  startedAt: r.startedAt?.toISOString() ?? null,
  finishedAt: r.finishedAt?.toISOString() ?? null,
  exitCode: r.state === 'exited' ? r.exitCode : null,
  isolation: r.isolation,
  dataVolume: r.dataVolume,
  // What the platform hands a container engine: its processes would see these GPUs.
  visibleDevices: visibleDevices(r.gpuIndices),
});

/**
 * A host that exists only in the database: containers are rows, so a restart loses nothing.
 * Settings give it latency, injected failures, an offline switch, its images and its GPUs.
 */
export function createSimulatedDriver(host: HostRecord, deps: SimulatedDeps): HostDriver {
  const { db, now } = deps;
  const settings = simulatedSettingsOf(host);
  const repo = createSimulatedRepository({ db }, host.id);

  /** Every call takes the host's latency; an offline host fails every call. */
  const reach = async () => {
    if (settings.latencyMs > 0) await deps.sleep(settings.latencyMs);
    if (settings.unreachable) throw new HostUnreachableError(`simulated host ${host.id} is offline`);
  };
  /** Injected failures hit the calls that change something. */
  const mayFail = (op: string) => {
    if (settings.failureRate > 0 && deps.random() < settings.failureRate) {
      throw new DriverFailureError(`simulated ${op} failure on host ${host.id}`, '模拟主机故障，请重试');
    }
  };
  const find = async (id: string): Promise<Row> => {
    const row = await repo.find(id);
    if (!row) throw new ContainerNotFoundError(id);
    return row;
  };
  const inventory = async (): Promise<GpuInfo[]> => {
    if (settings.gpus) return declaredGpuInfo(host.id, settings.gpus, 'sim');
    return repo.gpus();
  };
  const images = simulatedImages(db, host.id, { reach, mayFail, container: repo.find });
  /** A catalogue image (or one of the host's declared ones), else a user image it holds (its files). */
  const imageFiles = async (image: string): Promise<Record<string, string> | null> => {
    if (settings.images ? settings.images.includes(image) : await repo.imageEnabled(image)) return {};
    return images.filesOf(image);
  };

  /** Creates a container row (and its data volume, unless it exists) with these system-disk files. */
  const make = async (spec: ContainerSpec, files: Record<string, string>) => {
    await reach();
    mayFail('create');
    const fromImage = await imageFiles(spec.image);
    if (!fromImage) throw new ImageNotFoundError(spec.image);
    const present = new Set((await inventory()).map((g) => g.index));
    const missing = spec.gpuIndices.filter((i) => !present.has(i));
    if (missing.length > 0) throw new GpuUnavailableError(`no GPU ${missing.join(',')} on host ${host.id}`);
    const id = randomBytes(32).toString('hex');
    const at = now();
    const inserted = await repo.insert({
      id,
      name: spec.name,
      image: spec.image,
      labels: labelsOf(host, spec),
      envKeys: Object.keys(spec.env).sort(),
      gpuIndices: [...spec.gpuIndices],
      ports: spec.ports.map((p) => ({ ...p, hostIp: p.hostIp ?? '0.0.0.0' })),
      cpus: spec.cpus === undefined ? null : Math.ceil(spec.cpus),
      memoryGb: spec.memoryGb ?? null,
      diskGb: spec.diskGb ?? null,
      isolation: isolationOf(spec),
      dataVolume: spec.dataVolume
        ? { name: spec.dataVolume.name, mountPath: spec.dataVolume.mountPath }
        : null,
      files: { ...fromImage, ...files },
      createdAt: at,
      updatedAt: at,
    });
    if (!inserted) throw new ContainerConflictError(`name ${spec.name} in use on host ${host.id}`);
    if (spec.dataVolume) {
      const v = spec.dataVolume;
      const vol = await repo.ensureVolume({
        name: v.name,
        labels: labelsOf(host, spec),
        sizeGb: v.sizeGb ?? null,
      });
      if (instanceIdOf(vol.labels) !== spec.instanceId) {
        await repo.delete(id);
        throw new ContainerConflictError(`volume ${v.name} is not instance ${spec.instanceId}'s`);
      }
    }
    return { containerId: id, diskLimitEnforced: true };
  };

  const { filesOf: _files, putFiles, ...imageOps } = images;
  return {
    ...imageOps,
    ...simulatedCloneTransfer({ reach, mayFail, find, make, repo, images, putImage: putFiles }),
    kind: 'simulated',
    capabilities: DRIVER_CAPABILITIES.simulated,

    async probe(): Promise<ProbeResult> {
      if (settings.latencyMs > 0) await deps.sleep(settings.latencyMs);
      if (settings.unreachable) {
        return { reachable: false, gpus: [], warnings: [], error: '模拟主机处于离线状态' };
      }
      return {
        reachable: true,
        gpus: await inventory(),
        driverVersion: host.nvidiaDriver || SIMULATED_DRIVER_VERSION,
        cudaVersion: host.cudaVersion || SIMULATED_CUDA_VERSION,
        engineVersion: 'simulated',
        nvidiaRuntime: true,
        gpuSource: 'simulated',
        warnings: [],
      };
    },

    containerSpec: async (input) => buildInstanceContainerSpec(input),

    create: (spec: ContainerSpec) => make(spec, {}),

    async recreate(id: string, spec: ContainerSpec, opts: RecreateOptions) {
      await reach();
      mayFail('recreate');
      const old = await find(id);
      // As a container engine does it: the old one steps aside, the new one takes the name, the
      // data volume stays; "committing" carries the system disk's files over.
      await repo.set(id, { name: replacedNameOf(old.name, now().getTime()), state: 'exited' });
      try {
        const made = await make(spec, opts.keepSystemDisk ? old.files : {});
        await repo.delete(id);
        return made;
      } catch (err) {
        await repo.set(id, { name: old.name, state: old.state });
        throw err;
      }
    },

    clone: (sourceId, spec) => cloneSimulated({ reach, mayFail, find, make, repo }, sourceId, spec),

    async start(id: string) {
      await reach();
      mayFail('start');
      // Under the host's row lock, so two starts cannot both take one port.
      await withSimulatedHostLock(db, host.id, async (locked) => {
        const row = await locked.find(id);
        if (!row) throw new ContainerNotFoundError(id);
        if (row.state === 'running') return;
        const taken = new Set(await locked.portsOfOtherRunning(id));
        const clash = row.ports.find((p) => taken.has(p.hostPort));
        if (clash) throw new PortInUseError(clash.hostPort);
        const at = now();
        await locked.set(id, {
          state: 'running',
          startedAt: at,
          finishedAt: null,
          exitCode: null,
          updatedAt: at,
        });
      });
    },

    async installSshAccess(id, access) {
      await reach();
      const row = await find(id);
      if (row.state !== 'running')
        throw new DriverFailureError(`container ${id} is not running`, '容器未运行');
      await repo.set(id, {
        sshAccess: { ...access, authorizedKeys: [...access.authorizedKeys] },
        updatedAt: now(),
      });
    },

    async stop(id: string) {
      await reach();
      mayFail('stop');
      const row = await find(id);
      if (row.state !== 'running') return;
      const at = now();
      await repo.set(id, { state: 'exited', finishedAt: at, exitCode: 0, updatedAt: at });
    },

    async remove(id: string) {
      await reach();
      mayFail('remove');
      if (!(await repo.delete(id))) throw new ContainerNotFoundError(id);
    },

    async inspect(id: string) {
      await reach();
      return toState(await find(id));
    },

    async list() {
      await reach();
      return (await repo.managedContainers()).map(toSummary);
    },

    async findByName(name: string) {
      await reach();
      const row = await repo.managedByName(name);
      return row ? toSummary(row) : null;
    },

    async listVolumes() {
      await reach();
      return (await repo.managedVolumes()).map((v) => ({
        name: v.name,
        instanceId: instanceIdOf(v.labels),
        userId: userIdOf(v.labels),
        sizeGb: v.sizeGb,
      }));
    },

    async removeVolume(name: string) {
      await reach();
      await repo.deleteVolume(name);
    },

    async sample() {
      await reach();
      const [gpus, at] = [await inventory(), now()];
      return (await repo.managedContainers()).flatMap((r) => {
        const instanceId = instanceIdOf(r.labels);
        return r.state === 'running' && instanceId !== null ? [simulatedSample(r, instanceId, gpus, at)] : [];
      });
    },
  };
}
