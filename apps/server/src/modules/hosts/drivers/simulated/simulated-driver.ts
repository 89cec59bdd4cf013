import { randomBytes } from 'node:crypto';
import { type SimulatedSettings, simulatedSettingsSchema } from '@gpu/shared';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../../app/db/client.ts';
import { images } from '../../../market/market.tables.ts';
import { hostGpus, hosts, simulatedContainers } from '../../hosts.tables.ts';
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
  declaredGpuInfo,
  type GpuInfo,
  type HostDriver,
  type HostRecord,
  instanceIdOf,
  LABELS,
  labelsOf,
  type ProbeResult,
  userIdOf,
} from '../host-driver.ts';

export interface SimulatedDeps {
  db: Db;
  now: () => Date;
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

type Row = typeof simulatedContainers.$inferSelect;

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
});

/**
 * A host that exists only in the database: containers are rows, so a restart loses nothing.
 * Settings give it latency, injected failures, an offline switch, its images and its GPUs.
 */
export function createSimulatedDriver(host: HostRecord, deps: SimulatedDeps): HostDriver {
  const { db, now } = deps;
  const settings = simulatedSettingsOf(host);

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
    const [row] = await db
      .select()
      .from(simulatedContainers)
      .where(and(eq(simulatedContainers.id, id), eq(simulatedContainers.hostId, host.id)));
    if (!row) throw new ContainerNotFoundError(id);
    return row;
  };
  const inventory = async (): Promise<GpuInfo[]> => {
    if (settings.gpus) return declaredGpuInfo(host.id, settings.gpus, 'sim');
    const rows = await db
      .select({
        index: hostGpus.index,
        uuid: hostGpus.uuid,
        model: hostGpus.model,
        memoryGb: hostGpus.memoryGb,
      })
      .from(hostGpus)
      .where(eq(hostGpus.hostId, host.id))
      .orderBy(asc(hostGpus.index));
    return rows;
  };
  const hasImage = async (image: string): Promise<boolean> => {
    if (settings.images) return settings.images.includes(image);
    const [row] = await db
      .select({ id: images.id })
      .from(images)
      .where(and(eq(images.imageUrl, image), eq(images.enabled, true)));
    return Boolean(row);
  };

  return {
    kind: 'simulated',

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

    async create(spec: ContainerSpec) {
      await reach();
      mayFail('create');
      if (!(await hasImage(spec.image))) throw new ImageNotFoundError(spec.image);
      const present = new Set((await inventory()).map((g) => g.index));
      const missing = spec.gpuIndices.filter((i) => !present.has(i));
      if (missing.length > 0) throw new GpuUnavailableError(`no GPU ${missing.join(',')} on host ${host.id}`);
      const id = randomBytes(32).toString('hex');
      const at = now();
      const inserted = await db
        .insert(simulatedContainers)
        .values({
          id,
          hostId: host.id,
          name: spec.name,
          image: spec.image,
          labels: labelsOf(host, spec),
          envKeys: Object.keys(spec.env).sort(),
          gpuIndices: [...spec.gpuIndices],
          ports: spec.ports.map((p) => ({ ...p, hostIp: p.hostIp ?? '0.0.0.0' })),
          cpus: spec.cpus === undefined ? null : Math.ceil(spec.cpus),
          memoryGb: spec.memoryGb ?? null,
          diskGb: spec.diskGb ?? null,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: simulatedContainers.id });
      if (inserted.length === 0)
        throw new ContainerConflictError(`name ${spec.name} in use on host ${host.id}`);
      return { containerId: id, diskLimitEnforced: true };
    },

    async start(id: string) {
      await reach();
      mayFail('start');
      // Under the host's row lock, so two starts cannot both take one port.
      await db.transaction(async (tx) => {
        await tx.select({ id: hosts.id }).from(hosts).where(eq(hosts.id, host.id)).for('update');
        const [row] = await tx
          .select()
          .from(simulatedContainers)
          .where(and(eq(simulatedContainers.id, id), eq(simulatedContainers.hostId, host.id)));
        if (!row) throw new ContainerNotFoundError(id);
        if (row.state === 'running') return;
        const others = await tx
          .select({ ports: simulatedContainers.ports })
          .from(simulatedContainers)
          .where(
            and(
              eq(simulatedContainers.hostId, host.id),
              eq(simulatedContainers.state, 'running'),
              ne(simulatedContainers.id, id),
            ),
          );
        const taken = new Set(others.flatMap((o) => o.ports.map((p) => p.hostPort)));
        const clash = row.ports.find((p) => taken.has(p.hostPort));
        if (clash) throw new PortInUseError(clash.hostPort);
        const at = now();
        await tx
          .update(simulatedContainers)
          .set({ state: 'running', startedAt: at, finishedAt: null, exitCode: null, updatedAt: at })
          .where(eq(simulatedContainers.id, id));
      });
    },

    async stop(id: string) {
      await reach();
      mayFail('stop');
      const row = await find(id);
      if (row.state !== 'running') return;
      const at = now();
      await db
        .update(simulatedContainers)
        .set({ state: 'exited', finishedAt: at, exitCode: 0, updatedAt: at })
        .where(eq(simulatedContainers.id, id));
    },

    async remove(id: string) {
      await reach();
      mayFail('remove');
      const deleted = await db
        .delete(simulatedContainers)
        .where(and(eq(simulatedContainers.id, id), eq(simulatedContainers.hostId, host.id)))
        .returning({ id: simulatedContainers.id });
      if (deleted.length === 0) throw new ContainerNotFoundError(id);
    },

    async inspect(id: string) {
      await reach();
      return toState(await find(id));
    },

    async list() {
      await reach();
      const rows = await db
        .select()
        .from(simulatedContainers)
        .where(
          and(
            eq(simulatedContainers.hostId, host.id),
            sql`${simulatedContainers.labels} ->> ${LABELS.managed} = 'true'`,
          ),
        )
        .orderBy(asc(simulatedContainers.createdAt));
      return rows.map(toSummary);
    },

    async findByName(name: string) {
      await reach();
      const [row] = await db
        .select()
        .from(simulatedContainers)
        .where(
          and(
            eq(simulatedContainers.hostId, host.id),
            eq(simulatedContainers.name, name),
            sql`${simulatedContainers.labels} ->> ${LABELS.managed} = 'true'`,
          ),
        );
      return row ? toSummary(row) : null;
    },
  };
}
