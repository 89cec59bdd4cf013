import { NO_GPU_DEFAULT_HOURLY_PRICE, yuanToUnits } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const regions = pgTable('regions', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** The platform region id that package pricing is keyed by (SPEC.md §9). */
  code: text('code').notNull().unique(),
  sortOrder: integer('sort_order').notNull().default(0),
  overseas: boolean('overseas').notNull().default(false),
  /** A disabled region's hosts leave the market; the region stays for history. */
  enabled: boolean('enabled').notNull().default(true),
  /** No-GPU mode's price per hour on this region's hosts (units; 无卡模式, issue 30). */
  noGpuHourlyPrice: bigint('nogpu_hourly_price', { mode: 'number' })
    .notNull()
    .default(yuanToUnits(NO_GPU_DEFAULT_HOURLY_PRICE)),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const HOST_DRIVERS = ['simulated', 'docker', 'vastai'] as const;
export type HostDriverKind = (typeof HOST_DRIVERS)[number];
export const HOST_STATUSES = ['ACTIVE', 'DISABLED', 'MAINTENANCE'] as const;
export type HostStatus = (typeof HOST_STATUSES)[number];

/** Driver-specific connection and behaviour (docker socket/TLS, simulated latency and failures). */
export type HostSettings = Record<string, unknown>;

export const hosts = pgTable('hosts', {
  id: serial('id').primaryKey(),
  regionId: integer('region_id')
    .notNull()
    .references(() => regions.id),
  name: text('name').notNull().unique(),
  driver: text('driver').$type<HostDriverKind>().notNull(),
  status: text('status').$type<HostStatus>().notNull().default('ACTIVE'),
  /** Address shown to users for SSH and JupyterLab. */
  publicAddress: text('public_address').notNull().default(''),
  settings: jsonb('settings').$type<HostSettings>().notNull().default({}),
  cpuModel: text('cpu_model').notNull().default(''),
  cpuCores: integer('cpu_cores').notNull().default(0),
  memoryGb: integer('memory_gb').notNull().default(0),
  systemDiskGb: integer('system_disk_gb').notNull().default(0),
  dataDiskGb: integer('data_disk_gb').notNull().default(0),
  portRangeStart: integer('port_range_start').notNull().default(30000),
  portRangeEnd: integer('port_range_end').notNull().default(30999),
  nvidiaDriver: text('nvidia_driver').notNull().default(''),
  cudaVersion: text('cuda_version').notNull().default(''),
  lastProbeAt: timestamp('last_probe_at', { withTimezone: true }),
  lastProbeOk: boolean('last_probe_ok'),
  lastProbeError: text('last_probe_error'),
  /** Docker engine version (or `simulated`) seen by the last successful probe. */
  engineVersion: text('engine_version').notNull().default(''),
  /** The engine has the NVIDIA runtime (null until probed); without it GPUs come from settings. */
  nvidiaRuntime: boolean('nvidia_runtime'),
  /** Where the GPU inventory came from: `declared`, `nvidia-smi` or `simulated`. */
  gpuSource: text('gpu_source').notNull().default('declared'),
  /** Whether the storage driver enforces StorageOpt size (null until a container was created). */
  diskLimitSupported: boolean('disk_limit_supported'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One physical GPU. `instanceId` set means allocated to that instance; `reservedReason` set
 * means taken out of sale by an admin (maintenance, an offline customer). Idle = neither.
 */
export const hostGpus = pgTable(
  'host_gpus',
  {
    id: serial('id').primaryKey(),
    hostId: integer('host_id')
      .notNull()
      .references(() => hosts.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    uuid: text('uuid').notNull(),
    model: text('model').notNull(),
    memoryGb: integer('memory_gb').notNull(),
    instanceId: bigint('instance_id', { mode: 'number' }),
    reservedReason: text('reserved_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('host_gpus_host_index').on(t.hostId, t.index),
    // Held GPUs only: an index of the idle ones (nearly all of a fleet's) let a create's pick,
    // planned on statistics older than the fleet, read every idle GPU of the fleet (issue 33).
    // Partial, the pick can only take the host's own (host, index) rows, in the order it wants.
    index('host_gpus_instance').on(t.instanceId).where(sql`${t.instanceId} is not null`),
  ],
);

/** The host's port pool; `instanceId` set means mapped for that instance. */
export const hostPorts = pgTable(
  'host_ports',
  {
    hostId: integer('host_id')
      .notNull()
      .references(() => hosts.id, { onDelete: 'cascade' }),
    port: integer('port').notNull(),
    instanceId: bigint('instance_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.hostId, t.port] }),
    // Held ports only, as `host_gpus_instance`: a create's port pick read the fleet's 100,000
    // free ports through the full index (8.5 ms) when its plan predated the fleet's statistics.
    index('host_ports_instance').on(t.instanceId).where(sql`${t.instanceId} is not null`),
    // The hosts page counts each host's held ports from here, not from every held port of the
    // fleet (issue 33).
    index('host_ports_held').on(t.hostId).where(sql`${t.instanceId} is not null`),
  ],
);

export const SIMULATED_CONTAINER_STATES = ['created', 'running', 'exited'] as const;
export type SimulatedContainerState = (typeof SIMULATED_CONTAINER_STATES)[number];

/**
 * Containers of the simulated driver: kept in the database so a restart of the server loses
 * nothing. Removing a container deletes its row, as the engine forgets a removed container.
 */
export const simulatedContainers = pgTable(
  'simulated_containers',
  {
    id: text('id').primaryKey(),
    hostId: integer('host_id')
      .notNull()
      .references(() => hosts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    image: text('image').notNull(),
    state: text('state').$type<SimulatedContainerState>().notNull().default('created'),
    labels: jsonb('labels').$type<Record<string, string>>().notNull().default({}),
    /** Names of the environment variables (values are not kept: they hold the root password). */
    envKeys: jsonb('env_keys').$type<string[]>().notNull().default([]),
    /** What the last `installSshAccess` wrote (public keys and the password switch: nothing secret). */
    sshAccess: jsonb('ssh_access').$type<{ authorizedKeys: string[]; passwordAuth: boolean }>(),
    gpuIndices: jsonb('gpu_indices').$type<number[]>().notNull().default([]),
    ports: jsonb('ports')
      .$type<{ containerPort: number; hostPort: number; hostIp: string }[]>()
      .notNull()
      .default([]),
    cpus: integer('cpus'),
    memoryGb: integer('memory_gb'),
    diskGb: integer('disk_gb'),
    /** The isolation the container was made with (as a docker host would apply it). */
    isolation: jsonb('isolation').$type<{
      pidsLimit: number | null;
      memoryBytes: number | null;
      noNewPrivileges: boolean;
      capDrop: string[];
      capAdd: string[];
      networks: string[];
    }>(),
    /** Its data volume (simulated_volumes), mounted at `mountPath`. */
    dataVolume: jsonb('data_volume').$type<{ name: string; mountPath: string }>(),
    /** The system disk's files (path → text): what a recreate keeps only by committing. */
    files: jsonb('files').$type<Record<string, string>>().notNull().default({}),
    exitCode: integer('exit_code'),
    /** A fixed GPU utilisation its monitoring samples report (tests steer idle/busy); null: generated. */
    gpuLoad: smallint('gpu_load'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('simulated_containers_host_name').on(t.hostId, t.name)],
);

/** A simulated host's data volumes (volumes.ts): they outlive the containers that mount them. */
export const simulatedVolumes = pgTable(
  'simulated_volumes',
  {
    hostId: integer('host_id')
      .notNull()
      .references(() => hosts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    labels: jsonb('labels').$type<Record<string, string>>().notNull().default({}),
    sizeGb: integer('size_gb'),
    /** The volume's files (path inside the volume → text). */
    files: jsonb('files').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.hostId, t.name] })],
);

/**
 * The images a simulated host holds that it made itself: users' saved images (drivers/images.ts),
 * with the system disk's files of the container they came from. Host id 0 is the simulated
 * registry (IMAGE_REGISTRY) that push writes and pull reads.
 */
export const simulatedImages = pgTable(
  'simulated_images',
  {
    hostId: integer('host_id').notNull(),
    ref: text('ref').notNull(),
    files: jsonb('files').$type<Record<string, string>>().notNull().default({}),
    env: jsonb('env').$type<string[]>().notNull().default([]),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.hostId, t.ref] })],
);
