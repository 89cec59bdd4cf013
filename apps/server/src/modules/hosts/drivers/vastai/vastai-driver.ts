import { DRIVER_CAPABILITIES } from '../capabilities.ts';
import {
  ContainerConflictError,
  ContainerNotFoundError,
  DriverFailureError,
  GpuUnavailableError,
  OperationNotSupportedError,
} from '../driver-errors.ts';
import type {
  ContainerSpec,
  ContainerState,
  ContainerStatus,
  ContainerSummary,
  GpuInfo,
  HostDriver,
  HostRecord,
  InstanceContainerInput,
  ProbeResult,
} from '../host-driver.ts';
import { LABELS } from '../host-driver.ts';
import { containerNameOf, sshEnv } from '../instance-spec.ts';
import { createVastClient, type VastInstance, type VastOffer } from './vastai-api.ts';

/** What an overseas instance rents on vast.ai: the offer (ask) and the disk in GB. */
export interface VastaiRental {
  offerId: number;
  diskGb: number;
}

/** Where the driver reads what an instance rents (the vastai module keeps the rentals). */
export interface VastaiRentals {
  rentalOf(instanceId: number): Promise<VastaiRental | undefined>;
}

export interface VastaiDriverDeps {
  /** VASTAI_API_KEY; without it every call fails as not configured. */
  apiKey?: string;
  apiUrl: string;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  backoffMs?: number;
  /** The rentals, for `containerSpec` (the app wires the vastai module's). */
  rentals?: VastaiRentals;
}

/**
 * vast.ai has one free-text label per instance: ours carry the platform prefix, the instance
 * id, the owner and the container name, so list/findByName see only the platform's instances.
 */
const LABEL_PREFIX = 'gpu-platform';
export const vastLabelOf = (spec: Pick<ContainerSpec, 'instanceId' | 'userId' | 'name'>) =>
  `${LABEL_PREFIX}:${spec.instanceId}:${spec.userId ?? ''}:${spec.name}`;

function parseLabel(label: string | null) {
  const m = label?.match(/^gpu-platform:(\d+):(\d*):(.+)$/);
  if (!m) return null;
  return { instanceId: Number(m[1]), userId: m[2] ? Number(m[2]) : null, name: m[3] as string };
}

/** vast.ai's actual_status as a container status: it boots through created/loading. */
function statusOf(i: VastInstance): ContainerStatus {
  switch (i.actual_status) {
    case 'running':
      return 'running';
    case 'exited':
    case 'stopped':
    case 'offline':
      return 'exited';
    default:
      return i.intended_status === 'stopped' ? 'exited' : 'created';
  }
}

const idOf = (id: string): number => {
  if (!/^\d{1,15}$/.test(id)) throw new ContainerNotFoundError(id, 'not a vast.ai instance id');
  return Number(id);
};

const toSummary = (
  i: VastInstance,
  parsed: NonNullable<ReturnType<typeof parseLabel>>,
): ContainerSummary => ({
  id: String(i.id),
  name: parsed.name,
  image: i.image_uuid ?? '',
  status: statusOf(i),
  instanceId: parsed.instanceId,
  userId: parsed.userId,
  labels: {
    [LABELS.managed]: 'true',
    [LABELS.instanceId]: String(parsed.instanceId),
    ...(parsed.userId !== null ? { [LABELS.userId]: String(parsed.userId) } : {}),
  },
});

/** vast.ai maps these container ports to its own host ports: SSH and JupyterLab. */
const OVERSEAS_CONTAINER_PORTS = [22, 8888];

/** Container ports of a create: SSH always, the others as vast.ai's `-p` env entries. */
const portEnv = (spec: ContainerSpec) =>
  Object.fromEntries(
    spec.ports
      .filter((p) => p.containerPort !== 22)
      .map((p) => [`-p ${p.containerPort}:${p.containerPort}`, '1']),
  );

/**
 * An overseas "host": the vast.ai account. A container is a vast.ai instance (its id the
 * contract id); create rents an offer (spec.offerId); vast.ai picks the host ports; start
 * resolves once vast.ai reports the instance running, so billing starts only then.
 */
export function createVastaiDriver(host: HostRecord, deps: VastaiDriverDeps): HostDriver {
  const settings = (host.settings ?? {}) as { startWaitMs?: number; pollMs?: number };
  const startWaitMs = settings.startWaitMs ?? 90_000;
  const pollMs = settings.pollMs ?? 2_000;
  const wait = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const client = createVastClient({
    apiUrl: deps.apiUrl,
    apiKey: deps.apiKey ?? '',
    timeoutMs: deps.timeoutMs,
    backoffMs: deps.backoffMs,
    sleep: deps.sleep,
  });
  const configured = () => {
    if (!deps.apiKey) throw new DriverFailureError('VASTAI_API_KEY unset', '海外 GPU（vast.ai）未配置');
  };

  const managed = async (): Promise<ContainerSummary[]> => {
    configured();
    const all = await client.instances();
    return all.flatMap((i) => {
      const parsed = parseLabel(i.label);
      return parsed ? [toSummary(i, parsed)] : [];
    });
  };

  const inspect = async (id: string): Promise<ContainerState> => {
    const n = idOf(id);
    configured();
    const i = await client.instance(n);
    const parsed = parseLabel(i.label) ?? { instanceId: 0, userId: null, name: i.label ?? '' };
    const status = statusOf(i);
    const ip = i.public_ipaddr ?? '0.0.0.0';
    return {
      ...toSummary(i, parsed),
      instanceId: parsed.instanceId || null,
      // vast.ai isolates its rented machines itself: nothing of ours to report.
      isolation: null,
      running: status === 'running',
      gpuIndices: Array.from({ length: i.num_gpus }, (_, k) => k),
      ports: Object.entries(i.ports ?? {}).flatMap(([key, binds]) =>
        (binds ?? []).slice(0, 1).map((b) => ({
          containerPort: Number(key.split('/')[0]),
          hostPort: Number(b.HostPort),
          hostIp: ip,
        })),
      ),
      startedAt: i.start_date ? new Date(i.start_date * 1000).toISOString() : null,
      // vast.ai does not tell when an instance stopped.
      finishedAt: null,
      exitCode: null,
      sshAddress: i.ssh_host && i.ssh_port ? { host: i.ssh_host, port: i.ssh_port } : null,
    };
  };

  return {
    kind: 'vastai',
    capabilities: DRIVER_CAPABILITIES.vastai,

    async probe(): Promise<ProbeResult> {
      if (!deps.apiKey)
        return { reachable: false, gpus: [], warnings: [], error: '海外 GPU（vast.ai）未配置' };
      try {
        await client.currentUser();
        const offers = await client.searchOffers({}, 8);
        const gpus: GpuInfo[] = offers.flatMap((o: VastOffer) =>
          Array.from({ length: o.num_gpus }, (_, k) => ({
            index: 0,
            uuid: `vast-${o.id}-${k}`,
            model: o.gpu_name,
            memoryGb: Math.round(o.gpu_ram / 1024),
          })),
        );
        return {
          reachable: true,
          gpus: gpus.map((g, index) => ({ ...g, index })),
          engineVersion: 'vast.ai',
          gpuSource: 'declared',
          warnings: offers.length === 0 ? ['vast.ai 当前没有可租用的机器'] : [],
        };
      } catch (err) {
        return { reachable: false, gpus: [], warnings: [], error: (err as Error).message };
      }
    },

    /** The rental's offer and disk; vast.ai picks the host ports of SSH and JupyterLab. */
    async containerSpec(input: InstanceContainerInput): Promise<ContainerSpec> {
      if (!deps.rentals) throw new Error('vast.ai rentals are not wired to the vast.ai driver');
      const rental = await deps.rentals.rentalOf(input.instanceId);
      if (!rental) throw new Error(`instance ${input.instanceId} has no vast.ai rental`);
      return {
        name: containerNameOf(input.instanceId),
        image: input.image,
        instanceId: input.instanceId,
        userId: input.userId,
        gpuIndices: input.gpuIndices,
        ports: [...OVERSEAS_CONTAINER_PORTS, ...(input.extraPorts ?? []).map((p) => p.containerPort)].map(
          (p) => ({ containerPort: p, hostPort: 0 }),
        ),
        diskGb: rental.diskGb,
        env: { ROOT_PASSWORD: input.rootPassword, JUPYTER_TOKEN: input.jupyterToken, ...sshEnv(input.ssh) },
        offerId: rental.offerId,
      };
    },

    async create(spec: ContainerSpec) {
      configured();
      if (!spec.offerId) throw new GpuUnavailableError('vast.ai create without offerId');
      if ((await managed()).some((c) => c.name === spec.name)) {
        throw new ContainerConflictError(`label ${spec.name} in use on vast.ai`);
      }
      const id = await client.createInstance(spec.offerId, {
        image: spec.image,
        disk: spec.diskGb ?? 10,
        label: vastLabelOf(spec),
        runtype: 'ssh_direct',
        env: { ...spec.env, ...portEnv(spec) },
      });
      return { containerId: String(id), diskLimitEnforced: true };
    },

    async start(id: string) {
      const n = idOf(id);
      configured();
      const first = await client.instance(n);
      if (first.actual_status !== 'running' && first.intended_status !== 'running') {
        await client.setState(n, 'running');
      }
      const deadline = Date.now() + startWaitMs;
      for (;;) {
        const i = await client.instance(n);
        if (i.actual_status === 'running') return;
        if (Date.now() >= deadline) {
          throw new DriverFailureError(
            `instance ${n} still ${i.actual_status}`,
            '海外实例启动超时，请稍后重试',
          );
        }
        await wait(pollMs);
      }
    },

    async stop(id: string) {
      const n = idOf(id);
      configured();
      const i = await client.instance(n);
      if (i.intended_status === 'stopped' && i.actual_status !== 'running') return;
      await client.setState(n, 'stopped');
    },

    async remove(id: string) {
      const n = idOf(id);
      configured();
      await client.destroy(n);
    },

    // A rental is vast.ai's machine: it cannot be remade in place (capabilities.recreate).
    async recreate() {
      throw new OperationNotSupportedError('海外实例暂不支持重置系统或更换镜像', 'vastai: recreate');
    },

    inspect,

    list: managed,

    async findByName(name: string) {
      return (await managed()).find((c) => c.name === name) ?? null;
    },
  };
}
