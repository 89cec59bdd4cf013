import { z } from 'zod';
import { GPU_COUNT_MAX, INSTANCE_NAME_MAX } from './constants.ts';
import { idSchema } from './input.ts';
import { extraPortsSchema, instanceExtraPortSchema } from './instance-ports.ts';
import { INSTANCE_STATUSES } from './labels.ts';
import { billingTypeSchema, durationError } from './pricing.ts';

/** SPEC.md §5 instance name: letters, digits, hyphen; not starting or ending with a hyphen; ≤ 50. */
export const INSTANCE_NAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

export const instanceMessages = {
  nameRequired: '请输入实例名称',
  nameInvalid: '实例名称只能包含字母、数字和连字符，且不能以连字符开头或结尾',
  nameTooLong: `实例名称不能超过${INSTANCE_NAME_MAX}个字符`,
  imageRequired: '请选择镜像',
  created: '容器创建成功，计费已开始！',
} as const;

/** Live input filtering of the name field (SPEC.md §5): drop illegal characters, leading hyphens, repeated hyphens. */
export function filterInstanceName(raw: string): string {
  return raw
    .replace(/[^A-Za-z0-9-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+/, '')
    .slice(0, INSTANCE_NAME_MAX);
}

/** Default name: GPU name plus a timestamp, already valid (SPEC.md §5). */
export function defaultInstanceName(gpuName: string, at: Date): string {
  const stamp = [at.getMonth() + 1, at.getDate(), at.getHours(), at.getMinutes(), at.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join('');
  const base = filterInstanceName(gpuName.replace(/\s+/g, '-')).replace(/-+$/, '') || 'gpu';
  return `${base}-${stamp}`.slice(0, INSTANCE_NAME_MAX);
}

export const instanceNameSchema = z
  .string({ message: instanceMessages.nameRequired })
  .trim()
  .min(1, instanceMessages.nameRequired)
  .max(INSTANCE_NAME_MAX, instanceMessages.nameTooLong)
  .regex(INSTANCE_NAME_PATTERN, instanceMessages.nameInvalid);

/**
 * POST /api/gpu/instance/create (SPEC.md §3). Prices and `voucherDiscount` sent by the client
 * are accepted for compatibility and ignored: the server prices every order itself.
 */
export const createInstanceRequestSchema = z
  .object({
    machineId: idSchema('请选择GPU机器'),
    instanceName: instanceNameSchema,
    image: z
      .string({ message: instanceMessages.imageRequired })
      .trim()
      .min(1, instanceMessages.imageRequired)
      .max(300),
    gpuAmount: z.coerce
      .number()
      .int('GPU数量必须为整数')
      .min(1, 'GPU数量至少为1')
      .max(GPU_COUNT_MAX, `GPU数量最多为${GPU_COUNT_MAX}`),
    duration: z.coerce.number().int('时长必须为整数').default(1),
    billingType: billingTypeSchema,
    voucherId: idSchema('代金券编号无效').nullish(),
    /** Container ports to publish besides SSH and JupyterLab, each on a host port of the pool. */
    extraPorts: extraPortsSchema.default([]),
    voucherDiscount: z.unknown().optional(),
    totalGpu: z.unknown().optional(),
    systemDiskSizeGb: z.unknown().optional(),
    dataDiskSizeGb: z.unknown().optional(),
  })
  .superRefine((r, ctx) => {
    const err = durationError(r.billingType, r.duration);
    if (err) ctx.addIssue({ code: 'custom', message: err, path: ['duration'] });
  })
  .meta({
    examples: [
      {
        machineId: 1,
        instanceName: 'RTX-4090-1126103000',
        image: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
        gpuAmount: 1,
        duration: 1,
        billingType: 'hourly',
      },
    ],
  });
export type CreateInstanceRequest = z.infer<typeof createInstanceRequestSchema>;

export const instanceSchema = z
  .object({
    id: z.number().int(),
    /** Also accepted as `instance_uuid` by the power endpoints. */
    uuid: z.string(),
    name: z.string(),
    status: z.enum(INSTANCE_STATUSES),
    billingType: billingTypeSchema,
    gpuName: z.string(),
    gpuCount: z.number().int(),
    regionName: z.string(),
    hostName: z.string(),
    image: z.string(),
    /** Yuan per hour for the whole instance (discount applied); packages: per period in `packagePrice`. */
    hourlyPrice: z.number(),
    packagePrice: z.number().nullable(),
    duration: z.number().int(),
    charged: z.number(),
    createdAt: z.string(),
    runningSince: z.string().nullable(),
    expiresAt: z.string().nullable(),
    stoppedAt: z.string().nullable(),
    /** When it was released (RELEASED only). */
    releasedAt: z.string().nullable(),
    releaseAt: z.string().nullable(),
    stopReason: z.string().nullable(),
    warning: z.string().nullable(),
    containerId: z.string().nullable(),
    sshCommand: z.string().nullable(),
    sshPassword: z.string().nullable(),
    /** Password sign-in over SSH (off: keys only); applies at the next create or power on. */
    sshPasswordAuth: z.boolean(),
    jupyterUrl: z.string().nullable(),
    /** JupyterLab's login token, its own (not the root password); null while there is no container. */
    jupyterToken: z.string().nullable(),
    /** Where its data volume is mounted (it survives a reset); null where its host has none. */
    dataMountPath: z.string().nullable(),
    /** Its host can recreate its container: reset system / change image (issue 30). */
    resettable: z.boolean(),
    /** Its host can clone it (a new instance from its disks, issue 30). */
    cloneable: z.boolean(),
    /** Its host can save it as the user's private image (保存镜像, issue 30). */
    imageSaveable: z.boolean(),
    /** The machine (SKU) it runs on: a clone goes on it unless another is picked (clone-targets). */
    machineId: z.number().int().optional(),
    /** The user's extra ports, each with its host port (links only while running). */
    extraPorts: z.array(instanceExtraPortSchema),
    /** No-GPU mode (无卡模式, issue 30): it runs (or is starting) without GPUs, at `noGpuPrice`. */
    noGpu: z.boolean(),
    /** Yuan per hour of no-GPU mode for this instance (its region's price); null where not offered. */
    noGpuPrice: z.number().nullable(),
  })
  .meta({
    // What the API documentation shows (docs/api.md, /api/docs): a running pay-as-you-go instance.
    examples: [
      {
        id: 1024,
        uuid: '1024',
        name: 'RTX-4090-1126103000',
        status: 'RUNNING',
        billingType: 'hourly',
        gpuName: 'RTX 4090',
        gpuCount: 1,
        regionName: '安徽A区',
        hostName: 'ah-a-4090-01',
        image: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
        hourlyPrice: 1.98,
        packagePrice: null,
        duration: 1,
        charged: 0.33,
        createdAt: '2026-11-26T10:30:00.000+08:00',
        runningSince: '2026-11-26T10:30:08.000+08:00',
        expiresAt: null,
        stoppedAt: null,
        releasedAt: null,
        releaseAt: null,
        stopReason: null,
        warning: null,
        containerId: 'c0ffee4a1b2c',
        sshCommand: 'ssh -p 30022 root@ah-a-4090-01.gpu.local',
        sshPassword: 'Xk7#mP2q9LwR',
        sshPasswordAuth: true,
        jupyterUrl: 'http://ah-a-4090-01.gpu.local:30088/lab',
        jupyterToken: '6f1d0c2b9a8e7f3d',
        dataMountPath: '/root/data',
        resettable: true,
        cloneable: true,
        imageSaveable: true,
        machineId: 1,
        extraPorts: [],
        noGpu: false,
        noGpuPrice: 0.1,
      },
    ],
  });
export type Instance = z.infer<typeof instanceSchema>;

/**
 * POST /api/gpu/instance/reset: recreate a powered-off instance's container from its image, or
 * from `image` (change image); the data volume is kept, the system disk is not.
 */
export const resetInstanceRequestSchema = z
  .object({
    image: z
      .string({ message: instanceMessages.imageRequired })
      .trim()
      .min(1, instanceMessages.imageRequired)
      .max(300, '镜像地址过长')
      .optional(),
  })
  .strict();
export type ResetInstanceRequest = z.infer<typeof resetInstanceRequestSchema>;

/** PATCH /api/gpu/instances/:id: the owner renames an instance (same rules as at create). */
export const renameInstanceRequestSchema = z.object({ instanceName: instanceNameSchema });
export type RenameInstanceRequest = z.infer<typeof renameInstanceRequestSchema>;

/**
 * POST /api/gpu/instance/clone?instance_uuid=…: a new instance, bought as a create is, from the
 * source's system disk and data volume; what may differ from the source. `machineId`: the machine
 * to place it on (absent: the source's); another host's only with IMAGE_REGISTRY, in the source's
 * region with its GPU model (GET /api/gpu/instance/clone-targets lists them).
 */
export const cloneInstanceRequestSchema = z
  .object({
    instanceName: instanceNameSchema,
    machineId: idSchema('机器编号无效').optional(),
    gpuAmount: createInstanceRequestSchema.shape.gpuAmount,
    duration: createInstanceRequestSchema.shape.duration,
    billingType: billingTypeSchema,
    voucherId: idSchema('代金券编号无效').nullish(),
  })
  .superRefine((r, ctx) => {
    const err = durationError(r.billingType, r.duration);
    if (err) ctx.addIssue({ code: 'custom', message: err, path: ['duration'] });
  });
export type CloneInstanceRequest = z.infer<typeof cloneInstanceRequestSchema>;

export const instanceIdQuerySchema = z.object({
  instance_uuid: idSchema('实例编号无效'),
});

/**
 * Power on. `gpus=any`: a pay-as-you-go instance whose GPUs were taken while it was off may start on
 * other idle GPUs of its host (the customer agreed in the console); its container is recreated
 * on them, its system disk and data kept.
 */
export const powerOnQuerySchema = instanceIdQuerySchema.extend({
  gpus: z.enum(['any'], { message: '参数 gpus 只能为 any' }).optional(),
  /**
   * `mode=nogpu` (无卡模式开机, issue 30): a pay-as-you-go instance starts without any GPU at its
   * region's no-GPU price, to copy data or set up its environment; its GPUs stay on the market.
   */
  mode: z.enum(['nogpu'], { message: '参数 mode 只能为 nogpu（无卡模式开机）' }).optional(),
});

export const renewalRequestSchema = z.object({
  instanceId: idSchema('实例编号无效'),
  duration: z.coerce.number().int('时长必须为整数').min(1, '时长至少为1'),
});

export const renewalPricingSchema = z.object({
  instanceId: z.number().int(),
  billingType: billingTypeSchema,
  gpuCount: z.number().int(),
  unitPrice: z.number(),
  discountedUnitPrice: z.number(),
  maxDuration: z.number().int(),
  expiresAt: z.string().nullable(),
  options: z.array(z.object({ duration: z.number().int(), amount: z.number(), newExpiresAt: z.string() })),
});
export type RenewalPricing = z.infer<typeof renewalPricingSchema>;

/** Answer of POST /api/v2/package-billing/manual-renewal. */
export interface RenewalResult {
  instanceId: number;
  expiresAt: string;
  amount: number;
}
