import { z } from 'zod';
import { idSchema } from './input.ts';
import { statsComputedAt } from './stats.ts';

/** Host drivers (DESIGN §7) and host states an admin sets. */
export const HOST_DRIVER_KINDS = ['simulated', 'docker', 'vastai'] as const;
export type HostDriverName = (typeof HOST_DRIVER_KINDS)[number];
export const HOST_STATUS_VALUES = ['ACTIVE', 'DISABLED', 'MAINTENANCE'] as const;
export type HostStatusValue = (typeof HOST_STATUS_VALUES)[number];

/** Ports every instance container exposes: SSH and JupyterLab. */
export const INSTANCE_CONTAINER_PORTS = Object.freeze([22, 8888] as const);
/** Largest port pool a host may have, so an init never writes hundreds of thousands of rows. */
export const HOST_PORT_POOL_MAX = 10_000;
/** Shown instead of a stored secret (TLS key, SSH key or password); sent back unchanged it keeps the secret. */
export const SECRET_MASK = '******';

const int = (min: number, max: number, what: string) =>
  z
    .number({ message: `${what}必须是数字` })
    .int(`${what}必须是整数`)
    .min(min, `${what}不能小于 ${min}`)
    .max(max, `${what}不能大于 ${max}`);

/** GPUs a host declares: the inventory when the engine cannot report it (no NVIDIA runtime, simulated). */
export const declaredGpusSchema = z.object({
  model: z.string().trim().min(1, '请填写 GPU 型号').max(64, 'GPU 型号最多 64 个字符'),
  brand: z.string().trim().min(1).max(32).default('NVIDIA'),
  memoryGb: int(1, 1024, '显存'),
  count: int(0, 64, 'GPU 数量'),
});
export type DeclaredGpus = z.infer<typeof declaredGpusSchema>;

export const simulatedSettingsSchema = z
  .object({
    /** Delay of every driver call, to feel like a real host in the demo. */
    latencyMs: int(0, 60_000, '模拟延迟').default(0),
    /** Probability (0–1) that a create/start/stop/remove fails. */
    failureRate: z.number().min(0, '故障率不能小于 0').max(1, '故障率不能大于 1').default(0),
    /** Every call fails as if the host were offline. */
    unreachable: z.boolean().default(false),
    /** Images present on the host; absent means every image of the catalogue. */
    images: z.array(z.string().trim().min(1).max(300)).max(500).optional(),
    gpus: declaredGpusSchema.optional(),
  })
  .strict();
export type SimulatedSettings = z.infer<typeof simulatedSettingsSchema>;

const pem = (what: string) => z.string().trim().min(1, `请填写${what}`).max(20_000, `${what}过长`);

export const dockerSettingsSchema = z
  .object({
    /** How the server reaches the engine: a unix socket, TCP with TLS, or SSH. */
    connection: z.enum(['socket', 'tcp', 'ssh'], { message: '连接方式只能是 socket、tcp 或 ssh' }),
    socketPath: z.string().trim().min(1).max(300).optional(),
    host: z.string().trim().min(1).max(253).optional(),
    port: int(1, 65_535, '端口').optional(),
    tls: z.object({ ca: pem('CA 证书'), cert: pem('客户端证书'), key: pem('客户端私钥') }).optional(),
    /** Plain TCP without TLS gives root on the host to anyone on the network; only for test labs. */
    allowInsecureTcp: z.boolean().default(false),
    ssh: z
      .object({
        username: z.string().trim().min(1, '请填写 SSH 用户名').max(64),
        privateKey: pem('SSH 私钥').optional(),
        password: z.string().min(1).max(200).optional(),
      })
      .optional(),
    /** Host address the mapped ports listen on. */
    bindAddress: z.string().trim().min(1).max(64).default('0.0.0.0'),
    timeoutMs: int(1_000, 300_000, '超时').default(20_000),
    stopTimeoutS: int(0, 300, '停止等待时间').default(10),
    /** Image of the one-shot nvidia-smi container used by probe on hosts with the NVIDIA runtime. */
    probeImage: z.string().trim().min(1).max(300).default('nvidia/cuda:12.4.1-base-ubuntu22.04'),
    gpus: declaredGpusSchema.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const need = (ok: unknown, path: string, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (s.connection === 'tcp' || s.connection === 'ssh') need(s.host, 'host', '请填写主机地址');
    if (s.connection === 'tcp')
      need(s.tls || s.allowInsecureTcp, 'tls', '通过 TCP 连接 Docker 必须配置 TLS 证书');
    if (s.connection === 'ssh') need(s.ssh, 'ssh', '请填写 SSH 登录信息');
  });
export type DockerSettings = z.infer<typeof dockerSettingsSchema>;

const hostName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, '主机名为 1–64 位字母、数字、下划线、点或连字符');
const priceYuan = z
  .number({ message: '价格必须是数字' })
  .min(0, '价格不能为负')
  .max(100_000, '价格不能超过 100000 元/小时')
  .refine((n) => Math.abs(n * 10_000 - Math.round(n * 10_000)) < 1e-6, '价格最多 4 位小数');

const skuFields = {
  hourlyPrice: priceYuan,
  cpuPerGpu: int(0, 512, '每卡 CPU 核数'),
  memoryPerGpuGb: int(0, 4096, '每卡内存'),
  systemDiskGb: int(1, 10_000, '系统盘'),
  dataDiskGb: int(0, 100_000, '数据盘'),
  listed: z.boolean(),
};

/** The SKU a host sells: created or updated with the host when a price is given. */
export const hostSkuInputSchema = z.object({
  ...skuFields,
  cpuPerGpu: skuFields.cpuPerGpu.default(8),
  memoryPerGpuGb: skuFields.memoryPerGpuGb.default(32),
  systemDiskGb: skuFields.systemDiskGb.default(30),
  dataDiskGb: skuFields.dataDiskGb.default(50),
  listed: skuFields.listed.default(true),
});
export type HostSkuInput = z.infer<typeof hostSkuInputSchema>;

/** Host columns an admin edits; no defaults here, so a partial update leaves the rest alone. */
const hostFields = {
  name: hostName,
  regionId: int(1, 2_147_483_647, '地区'),
  status: z.enum(HOST_STATUS_VALUES, { message: '状态只能是 ACTIVE、DISABLED 或 MAINTENANCE' }),
  publicAddress: z.string().trim().max(253),
  cpuModel: z.string().trim().max(128),
  cpuCores: int(0, 4096, 'CPU 核数'),
  memoryGb: int(0, 65_536, '内存'),
  systemDiskGb: int(0, 100_000, '系统盘'),
  dataDiskGb: int(0, 1_000_000, '数据盘'),
  portRangeStart: int(1024, 65_535, '端口范围起点'),
  portRangeEnd: int(1024, 65_535, '端口范围终点'),
  sku: z.object(skuFields).partial(),
};

const hostCreateFields = {
  ...hostFields,
  status: hostFields.status.optional(),
  publicAddress: hostFields.publicAddress.default(''),
  cpuModel: hostFields.cpuModel.default(''),
  cpuCores: hostFields.cpuCores.default(0),
  memoryGb: hostFields.memoryGb.default(0),
  systemDiskGb: hostFields.systemDiskGb.default(0),
  dataDiskGb: hostFields.dataDiskGb.default(0),
  portRangeStart: hostFields.portRangeStart.default(30_000),
  portRangeEnd: hostFields.portRangeEnd.default(30_199),
  sku: hostSkuInputSchema.optional(),
};

const portRangeOk = (h: { portRangeStart?: number; portRangeEnd?: number }) =>
  h.portRangeStart === undefined || h.portRangeEnd === undefined || h.portRangeStart <= h.portRangeEnd;
const portRangeSmall = (h: { portRangeStart?: number; portRangeEnd?: number }) =>
  h.portRangeStart === undefined ||
  h.portRangeEnd === undefined ||
  h.portRangeEnd - h.portRangeStart + 1 <= HOST_PORT_POOL_MAX;

/** POST /api/admin/hosts: settings are checked against the chosen driver. */
export const hostCreateSchema = z
  .discriminatedUnion(
    'driver',
    [
      z.object({
        ...hostCreateFields,
        driver: z.literal('simulated'),
        settings: simulatedSettingsSchema.default({ latencyMs: 0, failureRate: 0, unreachable: false }),
      }),
      z.object({ ...hostCreateFields, driver: z.literal('docker'), settings: dockerSettingsSchema }),
    ],
    { message: '驱动只能是 simulated 或 docker' },
  )
  .refine(portRangeOk, { path: ['portRangeEnd'], message: '端口范围终点不能小于起点' })
  .refine(portRangeSmall, { path: ['portRangeEnd'], message: `端口池最多 ${HOST_PORT_POOL_MAX} 个端口` });
export type HostCreateInput = z.infer<typeof hostCreateSchema>;

/** PUT /api/admin/hosts/{id}: any subset; the driver stays; settings are checked against it. */
export const hostUpdateSchema = z
  .object(hostFields)
  .partial()
  .extend({ settings: z.record(z.string(), z.unknown()).optional() })
  .strict()
  .refine(portRangeOk, { path: ['portRangeEnd'], message: '端口范围终点不能小于起点' })
  .refine(portRangeSmall, { path: ['portRangeEnd'], message: `端口池最多 ${HOST_PORT_POOL_MAX} 个端口` });
export type HostUpdateInput = z.infer<typeof hostUpdateSchema>;

export const hostStatusInputSchema = z.object({
  status: z.enum(HOST_STATUS_VALUES, { message: '状态只能是 ACTIVE、DISABLED 或 MAINTENANCE' }),
});

export const hostGpuSchema = z.object({
  index: z.number().int(),
  uuid: z.string(),
  model: z.string(),
  memoryGb: z.number().int(),
  instanceId: z.number().int().nullable(),
  reservedReason: z.string().nullable(),
  /** 空闲 / 占用 / 保留 by the server's one definition (hosts' gpu-states.repository.ts). */
  state: z.enum(['idle', 'occupied', 'reserved']),
});

export const hostSkuSchema = z.object({
  id: z.number().int(),
  gpuModel: z.string(),
  gpuBrand: z.string(),
  memoryGb: z.number().int(),
  cpuPerGpu: z.number().int(),
  memoryPerGpuGb: z.number().int(),
  systemDiskGb: z.number().int(),
  dataDiskGb: z.number().int(),
  /** Yuan per hour. */
  hourlyPrice: z.number(),
  listed: z.boolean(),
});

/** A host as the admin API answers it; secrets in settings are masked. */
export const hostSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  regionId: z.number().int(),
  regionName: z.string(),
  driver: z.enum(HOST_DRIVER_KINDS),
  status: z.enum(HOST_STATUS_VALUES),
  publicAddress: z.string(),
  settings: z.record(z.string(), z.unknown()),
  cpuModel: z.string(),
  cpuCores: z.number().int(),
  memoryGb: z.number().int(),
  systemDiskGb: z.number().int(),
  dataDiskGb: z.number().int(),
  portRangeStart: z.number().int(),
  portRangeEnd: z.number().int(),
  nvidiaDriver: z.string(),
  cudaVersion: z.string(),
  engineVersion: z.string(),
  nvidiaRuntime: z.boolean().nullable(),
  /** Null until a container was created; false when the storage driver ignores StorageOpt size. */
  diskLimitSupported: z.boolean().nullable(),
  gpuSource: z.string(),
  lastProbeAt: z.string().nullable(),
  lastProbeOk: z.boolean().nullable(),
  lastProbeError: z.string().nullable(),
  gpuTotal: z.number().int(),
  gpuIdle: z.number().int(),
  gpuAllocated: z.number().int(),
  gpuReserved: z.number().int(),
  portTotal: z.number().int(),
  portAllocated: z.number().int(),
  skus: z.array(hostSkuSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HostView = z.infer<typeof hostSchema>;

export const hostDetailSchema = hostSchema.extend({ gpus: z.array(hostGpuSchema) });
export type HostDetail = z.infer<typeof hostDetailSchema>;

export const hostListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
  keyword: z.string().trim().max(64).optional(),
  regionId: idSchema('地区编号无效').optional(),
  driver: z.enum(HOST_DRIVER_KINDS).optional(),
  status: z.enum(HOST_STATUS_VALUES).optional(),
});

export const hostProbeResultSchema = z.object({
  reachable: z.boolean(),
  engineVersion: z.string(),
  nvidiaRuntime: z.boolean(),
  driverVersion: z.string(),
  cudaVersion: z.string(),
  gpuSource: z.string(),
  gpus: z.array(
    z.object({ index: z.number().int(), uuid: z.string(), model: z.string(), memoryGb: z.number() }),
  ),
  warnings: z.array(z.string()),
  error: z.string().nullable(),
  host: hostDetailSchema,
});

export const hostPortsResultSchema = z.object({
  total: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  allocated: z.number().int(),
});

export const hostStatisticsSchema = z.object({
  totalHosts: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
  byDriver: z.record(z.string(), z.number().int()),
  reachableHosts: z.number().int(),
  unreachableHosts: z.number().int(),
  neverProbedHosts: z.number().int(),
  totalGpus: z.number().int(),
  idleGpus: z.number().int(),
  /** 占用: held by an instance that is not powered off (the hosts module's one definition). */
  allocatedGpus: z.number().int(),
  /** 保留: a powered-off package's, taken out of sale, or on a host that is not active. */
  reservedGpus: z.number().int(),
  /** GPUs not idle over all GPUs, 0–1: 1 − idleGpus / totalGpus. */
  gpuUtilization: z.number(),
  totalPorts: z.number().int(),
  allocatedPorts: z.number().int(),
  computedAt: statsComputedAt,
});
export type HostStatistics = z.infer<typeof hostStatisticsSchema>;

/** GET /api/gpu/docker/gpus/available (SPEC.md §7). */
export const gpuAvailabilitySchema = z.object({
  hostId: z.number().int(),
  total: z.number().int(),
  free: z.number().int(),
  freeIds: z.array(z.number().int()),
  usedIds: z.array(z.number().int()),
});

/** One instance on the local-docker path, as GET /api/gpu/docker/instances lists it. */
export const dockerInstanceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  hostId: z.number().int(),
  hostName: z.string(),
  containerId: z.string().nullable(),
  gpuIds: z.array(z.number().int()),
  sshPort: z.number().int().nullable(),
  jupyterPort: z.number().int().nullable(),
  publicAddress: z.string(),
  image: z.string(),
  createdAt: z.string(),
});
export type DockerInstance = z.infer<typeof dockerInstanceSchema>;

export const dockerCleanupResultSchema = z.object({
  checked: z.number().int(),
  removed: z.array(
    z.object({ hostId: z.number().int(), containerId: z.string(), instanceId: z.number().int() }),
  ),
  failedHosts: z.array(z.object({ hostId: z.number().int(), message: z.string() })),
});
