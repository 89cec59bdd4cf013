import type { hosts } from '../hosts.tables.ts';
import type { CloneTransferRefs } from './clone.ts';
import type { UserImageOps } from './images.ts';
import type { ContainerIsolation } from './isolation.ts';
import type { ContainerSample } from './sampling.ts';
import type { DataVolumeSpec, MountedVolume, RecreateOptions, VolumeSummary } from './volumes.ts';

/** A host row as the drivers read it: connection and behaviour are in `settings`. */
export type HostRecord = typeof hosts.$inferSelect;

/** Labels on every container this platform creates; `list` returns only containers with them. */
export const LABELS = {
  managed: 'io.gpu-platform.managed',
  instanceId: 'io.gpu-platform.instance-id',
  hostId: 'io.gpu-platform.host-id',
  userId: 'io.gpu-platform.user-id',
  /** On a data volume: its size in GB as asked (recorded where it cannot be enforced). */
  sizeGb: 'io.gpu-platform.size-gb',
} as const;

export interface GpuInfo {
  index: number;
  uuid: string;
  model: string;
  memoryGb: number;
}

export interface ProbeResult {
  reachable: boolean;
  gpus: GpuInfo[];
  driverVersion?: string;
  cudaVersion?: string;
  engineVersion?: string;
  nvidiaRuntime?: boolean;
  /** `nvidia-smi` (reported by the host), `declared` (from settings) or `simulated`. */
  gpuSource?: 'nvidia-smi' | 'declared' | 'simulated';
  /** CPU cores and memory the engine reports, to fill a host created without them. */
  cpuCores?: number;
  memoryGb?: number;
  /** Something worth telling the admin that did not stop the probe (zh-CN). */
  warnings: string[];
  /** Why the host is unreachable (zh-CN, a fixed reason: never the target's own answer), when it is. */
  error?: string;
  /** What went wrong in the driver's words, for the server log only. */
  detail?: string;
}

export interface PortBinding {
  containerPort: number;
  hostPort: number;
  /** Address on the host; the host's bindAddress setting when absent. */
  hostIp?: string;
}

/** What a container is made from (DESIGN §7): image, GPU indices, port bindings, disks, env, labels. */
export interface ContainerSpec {
  name: string;
  image: string;
  instanceId: number;
  /** Owner, kept as a label so a user's cleanup only ever touches that user's containers. */
  userId?: number;
  gpuIndices: number[];
  ports: PortBinding[];
  /** CPU cores (may be fractional) and memory in GiB; absent means unlimited. */
  cpus?: number;
  memoryGb?: number;
  /** Root file system size in GB; enforced only where the storage driver allows it. */
  diskGb?: number;
  env: Record<string, string>;
  labels?: Record<string, string>;
  /** Most processes and threads the container may run; DEFAULT_PIDS_LIMIT when absent. */
  pidsLimit?: number;
  /** Overrides the image's command (tests use it; real images bring their own). */
  command?: string[];
  /** vast.ai only: the offer (ask) to rent; its GPUs are the instance's. */
  offerId?: number;
  /** Drivers with `capabilities.dataVolume`: the volume to make (or reuse) and mount. */
  dataVolume?: DataVolumeSpec;
}

/**
 * What the platform knows of an instance when its container is made; each driver makes the
 * container's spec from it (`HostDriver.containerSpec`).
 */
export interface InstanceContainerInput {
  instanceId: number;
  userId: number;
  image: string;
  gpuIndices: number[];
  /** Host ports allocated to it, SSH first, then JupyterLab; none where the provider picks them. */
  ports: number[];
  /** The user's extra ports and their allocated host ports (a provider picks its own host ports). */
  extraPorts?: PortBinding[];
  sku: { cpuPerGpu: number; memoryPerGpuGb: number; systemDiskGb: number; dataDiskGb: number };
  rootPassword: string;
  jupyterToken: string;
  /** The owner's SSH keys and password switch as they are now (absent: none, password on). */
  ssh?: SshAccess;
}

/**
 * How users may sign in over SSH: the owner's public keys (authorized_keys lines) and whether the
 * root password is accepted too. Read when the container is made and again at each start.
 */
export interface SshAccess {
  authorizedKeys: string[];
  passwordAuth: boolean;
}

/** An SSH endpoint: host name or address, and port. */
export interface SshAddress {
  host: string;
  port: number;
}

/**
 * What a kind of host is, known without connecting to it (`capabilitiesOf`, capabilities.ts),
 * so usecases ask this and never test the driver's name.
 */
export interface DriverCapabilities {
  /**
   * The platform hands out this host's GPUs and ports (host_gpus, host_ports): a create
   * allocates them, power on takes the same GPUs back, and the host is a local one that the
   * Docker-path endpoints, cleanup and reconcile visit. False where the provider picks the
   * machine for each rental and keeps its GPUs while it is stopped (vast.ai).
   */
  localAllocation: boolean;
  /**
   * The provider gives each container its own SSH address, which `inspect` reports once it runs
   * (vast.ai). Otherwise users reach it at the host's public address on the instance's SSH port.
   */
  ownSshAddress: boolean;
  /** Each instance gets a data volume that outlives its container (`volumes.ts`). */
  dataVolume: boolean;
  /** `recreate` replaces a container (reset system, change image); false: it refuses. */
  recreate: boolean;
  /** `clone` makes a new instance's container from another's system disk and data volume. */
  clone: boolean;
  /** Users may save an instance as a private image (`UserImageOps`, images.ts); false: refused. */
  userImages: boolean;
  /** `sample` reports what each running container uses (monitoring, issue 31). */
  sampling: boolean;
}

export interface CreateResult {
  containerId: string;
  /** False when the disk size could not be enforced (StorageOpt unsupported) and was dropped. */
  diskLimitEnforced: boolean;
}

export type ContainerStatus =
  | 'created'
  | 'running'
  | 'paused'
  | 'restarting'
  | 'removing'
  | 'exited'
  | 'dead';

export interface ContainerSummary {
  id: string;
  name: string;
  image: string;
  status: ContainerStatus;
  instanceId: number | null;
  userId: number | null;
  labels: Record<string, string>;
}

export interface ContainerState extends ContainerSummary {
  running: boolean;
  gpuIndices: number[];
  ports: PortBinding[];
  startedAt: string | null;
  finishedAt: string | null;
  exitCode: number | null;
  /** Where users SSH in when the provider says so itself (vast.ai's ssh_host/ssh_port). */
  sshAddress?: SshAddress | null;
  /** What keeps this container from others on the host; null where the provider decides (vast.ai). */
  isolation: ContainerIsolation | null;
  /** The data volume mounted in it, where its driver makes one. */
  dataVolume?: MountedVolume | null;
  /** NVIDIA_VISIBLE_DEVICES as its processes see it (`visibleDevices`), where the driver knows. */
  visibleDevices?: string;
}

/** A network the platform made for a container (per-instance bridge), with the labels it carries. */
export interface NetworkSummary {
  id: string;
  name: string;
  instanceId: number | null;
  userId: number | null;
}

/**
 * One GPU host (DESIGN §7). The registry binds a driver to a host row, so `probe` and `list`
 * act on that host and container ids are the host's own.
 */
export interface HostDriver extends Partial<UserImageOps>, Partial<CloneTransferOps> {
  readonly kind: string;
  /** The same as `capabilitiesOf(kind)`. */
  readonly capabilities: DriverCapabilities;
  probe(): Promise<ProbeResult>;
  /**
   * The spec `create` takes for this instance's container: a container engine runs it on the
   * allocated GPUs and ports (`buildInstanceContainerSpec`); a provider adds what it rents and
   * maps its own ports (vast.ai: the rental's offer and disk).
   */
  containerSpec(input: InstanceContainerInput): Promise<ContainerSpec>;
  create(spec: ContainerSpec): Promise<CreateResult>;
  /** Starting a running container or stopping a stopped one is not an error. */
  start(id: string): Promise<void>;
  stop(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  inspect(id: string): Promise<ContainerState>;
  /** Only containers carrying the platform's label. */
  list(): Promise<ContainerSummary[]>;
  /**
   * The platform's container of exactly this name, or null. Instance containers are named by
   * their instance id, so one made just before a crash (its id never saved) is still found.
   */
  findByName(name: string): Promise<ContainerSummary | null>;
  /**
   * Drivers that make a network per container (docker): the platform's networks, and removing
   * one, so cleanup can drop those left by a crash between network and container. `remove`
   * already removes a container's own network.
   */
  listNetworks?(): Promise<NetworkSummary[]>;
  /**
   * Drivers that can reach into a running container (docker: an exec; simulated: records it):
   * writes /root/.ssh/authorized_keys and the sshd password switch, so keys added or removed
   * since the container was made apply at each power on. Without it, only the create's
   * environment (SSH_AUTHORIZED_KEYS, SSH_PASSWORD_AUTH) carries them.
   */
  installSshAccess?(id: string, access: SshAccess): Promise<void>;
  removeNetwork?(id: string): Promise<void>;
  /**
   * Replaces a container by one made from `spec` under the same name, keeping its data volume
   * (and, with `keepSystemDisk`, its system disk); the old one is removed once the new one
   * exists. Drivers without `capabilities.recreate` refuse (NOT_SUPPORTED).
   */
  recreate(id: string, spec: ContainerSpec, opts: RecreateOptions): Promise<CreateResult>;
  /**
   * Drivers with `capabilities.clone` (clone.ts): the container of `spec` from a commit of the
   * stopped `sourceId` (its secrets dropped) with a new data volume copied from the source's.
   */
  clone?(sourceId: string, spec: ContainerSpec): Promise<CreateResult>;
  /** Drivers with `capabilities.dataVolume`: the platform's data volumes, and removing one (gone is fine). */
  listVolumes?(): Promise<VolumeSummary[]>;
  removeVolume?(name: string): Promise<void>;
  /**
   * Drivers with `capabilities.sampling`: one sample per running container carrying the
   * platform's label. A slow call (engine stats): never inside a request or a transaction.
   */
  sample?(): Promise<ContainerSample[]>;
}

export {
  type ContainerIsolation,
  DEFAULT_PIDS_LIMIT,
  INSTANCE_CAPABILITIES,
  isolationOf,
  networkNameOf,
} from './isolation.ts';
export type { ContainerSample, GpuSample } from './sampling.ts';

/**
 * A clone to another host (drivers with `capabilities.clone` and `userImages`): the source's host
 * exports, the target's host imports; both through the registry the references name, so the
 * platform server never carries the disks' bytes.
 */
export interface CloneTransferOps {
  /**
   * Commits the stopped `sourceId`'s system disk (platform env values dropped) to `refs.system`
   * and packs its data volume into `refs.data`, pushes both and removes them from this host.
   * Answers whether there was a data volume to carry. `clone` is the clone's spec: a helper made
   * here carries its name and labels (one left by a crash goes with the clone, as cleanup does).
   */
  exportClone(sourceId: string, refs: CloneTransferRefs, clone: ContainerSpec): Promise<{ data: boolean }>;
  /**
   * Pulls them, fills `spec`'s new data volume from `refs.data` (when `data`) and makes the
   * container of `spec` from the system disk; the pulled references are removed from this host.
   */
  importClone(refs: CloneTransferRefs, spec: ContainerSpec, opts: { data: boolean }): Promise<CreateResult>;
}
