/**
 * Engine answers recorded from Debian's docker.io 20.10.24 (API 1.41) started as in
 * scripts/with-docker.sh (vfs storage driver, no NVIDIA runtime), trimmed to the fields the
 * driver reads. Answers of an engine with the NVIDIA container toolkit cannot be recorded on
 * these machines; those below are marked and follow the engine's documented shapes.
 */
export const VERSION = {
  Version: '20.10.24+dfsg1',
  ApiVersion: '1.41',
  MinAPIVersion: '1.12',
  Os: 'linux',
  Arch: 'amd64',
  KernelVersion: '6.18.44-fc-v769',
};

export const INFO_WITHOUT_NVIDIA = {
  ServerVersion: '20.10.24+dfsg1',
  Driver: 'vfs',
  NCPU: 2,
  MemTotal: 25_276_063_744,
  Runtimes: {
    'io.containerd.runc.v2': { path: 'runc' },
    'io.containerd.runtime.v1.linux': { path: 'runc' },
    runc: { path: 'runc' },
  },
  DefaultRuntime: 'runc',
};

/** Not recorded: an engine configured by `nvidia-ctk runtime configure --runtime=docker`. */
export const INFO_WITH_NVIDIA = {
  ...INFO_WITHOUT_NVIDIA,
  Driver: 'overlay2',
  NCPU: 128,
  MemTotal: 1_081_000_000_000,
  Runtimes: { ...INFO_WITHOUT_NVIDIA.Runtimes, nvidia: { path: 'nvidia-container-runtime' } },
};

export const CREATED = {
  Id: '326fc380b5b0582ca6cbf7c0b3fb80c3fd9996b75f1898a5234f27d8258e0fc5',
  Warnings: [],
};

/** POST /networks/create (a container's own bridge). */
export const NETWORK_CREATED = {
  Id: '4a731a7344f8fa09de513bd7cdf9894a93d9096a9e69816df8c1fa22b880ed13',
  Warning: '',
};

/** POST /networks/create with CheckDuplicate for a name that exists. */
export const NETWORK_EXISTS = {
  status: 409,
  json: { message: 'network with name gpu-inst-77 already exists' },
};

/**
 * POST /networks/create once the engine's address pools are used up: with dockerd's defaults
 * after 30 networks (recorded: 15 × /16 from 172.17.0.0/12 and 16 × /20 from 192.168.0.0/16, less docker0).
 */
export const ADDRESS_POOLS_EXHAUSTED = {
  status: 404,
  json: {
    message:
      'could not find an available, non-overlapping IPv4 address pool among the defaults to assign to the network',
  },
};

/** GET /networks/gpu-inst-77: the network made for instance 77 (trimmed). */
export const NETWORK_OF_77 = {
  Name: 'gpu-inst-77',
  Id: NETWORK_CREATED.Id,
  Driver: 'bridge',
  IPAM: { Driver: 'default', Options: null, Config: [{ Subnet: '172.18.0.0/16', Gateway: '172.18.0.1' }] },
  Containers: {},
  Labels: { 'io.gpu-platform.instance-id': '77', 'io.gpu-platform.managed': 'true' },
};

/** POST /containers/create with HostConfig.StorageOpt.size on vfs over a file system without quotas. */
export const STORAGE_OPT_UNSUPPORTED = {
  status: 500,
  json: { message: 'Filesystem does not support, or has not enabled quotas' },
};

export const NO_SUCH_IMAGE = { status: 404, json: { message: 'No such image: gpu-test/nope:latest' } };

export const NAME_CONFLICT = {
  status: 409,
  json: {
    message:
      'Conflict. The container name "/a1" is already in use by container "326fc380b5b0582ca6cbf7c0b3fb80c3fd9996b75f1898a5234f27d8258e0fc5". You have to remove (or rename) that container to be able to reuse that name.',
  },
};

/** POST /containers/{id}/start when another container holds the host port. */
export const PORT_ALLOCATED = {
  status: 500,
  json: {
    message:
      'driver failed programming external connectivity on endpoint a2 (21e8ae2b5d4e7dc7ab8c63526f352e18911f8cbb5d61a8a6f4741e130983c324): Bind for 127.0.0.1:31022 failed: port is already allocated',
  },
};

/** POST /containers/{id}/start when a process outside docker listens on the host port. */
export const ADDRESS_IN_USE = {
  status: 500,
  json: {
    message:
      'driver failed programming external connectivity on endpoint a3 (5c012e96ce011c18128979a22fdf39354829a289c774989090faec898f9c670a): Error starting userland proxy: listen tcp4 127.0.0.1:31023: bind: address already in use',
  },
};

/** POST /containers/{id}/start of a container with an nvidia DeviceRequest on an engine without the toolkit. */
export const NO_NVIDIA_DRIVER = {
  status: 500,
  json: { message: 'could not select device driver "nvidia" with capabilities: [[gpu]]' },
};

/** Not recorded: what NVIDIA_SMI_SCRIPT prints on an 8 x A100 80GB host (nvidia-smi 550). */
export const NVIDIA_SMI_OUTPUT = [
  ...Array.from(
    { length: 8 },
    (_, i) => `${i}, GPU-5c3a9b8e-4d2f-11ee-8c90-0242ac12000${i}, NVIDIA A100-SXM4-80GB, 81920, 550.127.05`,
  ),
  'CUDA Version: 12.4',
  '',
].join('\r\n');
