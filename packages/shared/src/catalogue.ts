import { z } from 'zod';
import { NO_GPU_DEFAULT_HOURLY_PRICE } from './constants.ts';
import { FRAMEWORK_TYPES, PLATFORM_TYPES } from './images.ts';
import { idSchema, textSchema } from './input.ts';

/** The catalogue an admin keeps (SPEC.md §7 Admin): regions, images, GPU SKUs. */

const int = (min: number, max: number, what: string) =>
  z
    .number({ message: `${what}必须是数字` })
    .int(`${what}必须是整数`)
    .min(min, `${what}不能小于 ${min}`)
    .max(max, `${what}不能大于 ${max}`);
const line = (max: number, what: string) =>
  textSchema(`${what}必须是文本`).trim().max(max, `${what}最多 ${max} 个字符`);
const required = (max: number, what: string) => line(max, what).min(1, `请填写${what}`);
const pageQuery = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
};
const boolQuery = z
  .enum(['true', 'false'], { message: '只能是 true 或 false' })
  .transform((v) => v === 'true');

// ---- Regions ----
export const regionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  sortOrder: z.number().int(),
  overseas: z.boolean(),
  enabled: z.boolean(),
  /** Yuan per hour of no-GPU mode (无卡模式, issue 30) on this region's hosts. */
  noGpuHourlyPrice: z.number(),
  hostCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RegionView = z.infer<typeof regionSchema>;

/** A region code: the server's check and the admin form's (one rule). */
export const REGION_CODE_RULE = {
  pattern: /^[A-Za-z0-9_-]{1,32}$/,
  message: '地区代码为 1–32 位字母、数字、下划线或连字符',
} as const;

const regionFields = {
  name: required(32, '地区名称'),
  code: line(32, '地区代码').regex(REGION_CODE_RULE.pattern, REGION_CODE_RULE.message),
  sortOrder: int(-10_000, 10_000, '排序'),
  overseas: z.boolean({ message: '是否海外必须是布尔值' }),
  enabled: z.boolean({ message: '启用状态必须是布尔值' }),
  noGpuHourlyPrice: z
    .number({ message: '无卡模式价格必须是数字' })
    .min(0.01, '无卡模式价格不能低于 0.01 元/时')
    .max(100, '无卡模式价格不能超过 100 元/时')
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, '无卡模式价格最多 2 位小数（精确到分）'),
};
export const regionCreateSchema = z.object({
  ...regionFields,
  sortOrder: regionFields.sortOrder.default(0),
  overseas: regionFields.overseas.default(false),
  enabled: regionFields.enabled.default(true),
  noGpuHourlyPrice: regionFields.noGpuHourlyPrice.default(NO_GPU_DEFAULT_HOURLY_PRICE),
});
export type RegionCreateInput = z.infer<typeof regionCreateSchema>;
export const regionUpdateSchema = z.object(regionFields).partial().strict();
export type RegionUpdateInput = z.infer<typeof regionUpdateSchema>;

/** Whether a GPU type is on sale: all, some or none of its SKUs listed. */
export const GPU_TYPE_SALE = ['all', 'some', 'none'] as const;
export type GpuTypeSale = (typeof GPU_TYPE_SALE)[number];

/** A GPU model sold in a region (from the SKUs of its hosts). */
export const gpuTypeSchema = z.object({
  gpuModel: z.string(),
  gpuBrand: z.string(),
  memoryGb: z.number().int(),
  regionIds: z.array(z.number().int()),
  skuCount: z.number().int(),
  /** How many of those SKUs are listed (on the market while their host and region are on). */
  listedCount: z.number().int(),
  sale: z.enum(GPU_TYPE_SALE),
  gpuTotal: z.number().int(),
  gpuIdle: z.number().int(),
});
export type GpuTypeView = z.infer<typeof gpuTypeSchema>;

/** Takes a GPU type of a region off sale, or puts it back: `listed` on each of its SKUs there. */
export const gpuTypeStatusSchema = z
  .object({
    gpuModel: required(64, 'GPU 型号'),
    listed: z.boolean({ message: '上架状态必须是布尔值' }),
  })
  .strict();
export type GpuTypeStatusInput = z.infer<typeof gpuTypeStatusSchema>;
/**
 * The region's GPU type after the change to `listed`; `changed` SKUs flipped, `unpriced` SKUs
 * (¥0, never priced) stayed off sale when putting it back on.
 */
export const gpuTypeStatusResultSchema = gpuTypeSchema.extend({
  listed: z.boolean(),
  changed: z.number().int(),
  unpriced: z.number().int(),
});
export type GpuTypeStatusResult = z.infer<typeof gpuTypeStatusResultSchema>;

// ---- Images ----
export const adminImageSchema = z.object({
  id: z.number().int(),
  imageName: z.string(),
  imageUrl: z.string(),
  frameworkType: z.string(),
  frameworkVersion: z.string(),
  pythonVersion: z.string(),
  cudaVersion: z.string(),
  cannVersion: z.string(),
  musaVersion: z.string(),
  osInfo: z.string(),
  gpuBrand: z.string(),
  platformType: z.string(),
  description: z.string(),
  preset: z.boolean(),
  enabled: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminImage = z.infer<typeof adminImageSchema>;

const version = (what: string) =>
  line(32, what).regex(/^[A-Za-z0-9._+-]*$/, `${what}只能包含字母、数字、点、加号或连字符`);
const imageFields = {
  imageName: required(100, '镜像名称'),
  imageUrl: required(300, '镜像地址').regex(
    /^[a-z0-9][a-z0-9._/:@-]*$/,
    '镜像地址格式不正确（如 pytorch/pytorch:2.3.0）',
  ),
  frameworkType: z.enum(FRAMEWORK_TYPES, { message: '框架只能是 pytorch、tensorflow 或 base' }),
  frameworkVersion: version('框架版本'),
  pythonVersion: version('Python 版本'),
  cudaVersion: version('CUDA 版本'),
  cannVersion: version('CANN 版本'),
  musaVersion: version('MUSA 版本'),
  osInfo: line(64, '操作系统'),
  gpuBrand: required(32, 'GPU 品牌'),
  platformType: z.enum(PLATFORM_TYPES, { message: '平台类型只能是 local、vast.ai 或 autodl' }),
  description: line(500, '描述'),
  preset: z.boolean({ message: '预置必须是布尔值' }),
  enabled: z.boolean({ message: '启用状态必须是布尔值' }),
  sortOrder: int(-10_000, 10_000, '排序'),
};
export const imageCreateSchema = z.object({
  ...imageFields,
  frameworkVersion: imageFields.frameworkVersion.default(''),
  pythonVersion: imageFields.pythonVersion.default(''),
  cudaVersion: imageFields.cudaVersion.default(''),
  cannVersion: imageFields.cannVersion.default(''),
  musaVersion: imageFields.musaVersion.default(''),
  osInfo: imageFields.osInfo.default(''),
  gpuBrand: imageFields.gpuBrand.default('NVIDIA'),
  platformType: imageFields.platformType.default('local'),
  description: imageFields.description.default(''),
  preset: imageFields.preset.default(false),
  enabled: imageFields.enabled.default(true),
  sortOrder: imageFields.sortOrder.default(0),
});
export type ImageCreateInput = z.infer<typeof imageCreateSchema>;
export const imageUpdateSchema = z.object(imageFields).partial().strict();
export type ImageUpdateInput = z.infer<typeof imageUpdateSchema>;
export const adminImageQuerySchema = z.object({
  ...pageQuery,
  keyword: line(64, '关键字').optional(),
  frameworkType: z.enum(FRAMEWORK_TYPES, { message: '框架只能是 pytorch、tensorflow 或 base' }).optional(),
  gpuBrand: line(32, 'GPU 品牌').optional(),
  enabled: boolQuery.optional(),
});

// ---- GPU SKUs ----
export const gpuSkuSchema = z.object({
  id: z.number().int(),
  hostId: z.number().int(),
  hostName: z.string(),
  regionId: z.number().int(),
  regionName: z.string(),
  gpuModel: z.string(),
  gpuBrand: z.string(),
  memoryGb: z.number().int(),
  cpuPerGpu: z.number().int(),
  memoryPerGpuGb: z.number().int(),
  systemDiskGb: z.number().int(),
  dataDiskGb: z.number().int(),
  /** Yuan per GPU-hour. */
  hourlyPrice: z.number(),
  listed: z.boolean(),
  gpuTotal: z.number().int(),
  gpuIdle: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GpuSkuView = z.infer<typeof gpuSkuSchema>;

export const priceYuanSchema = z
  .number({ message: '价格必须是数字' })
  .min(0, '价格不能为负')
  .max(1_000_000, '价格不能超过 1000000 元')
  .refine((n) => Math.abs(n * 10_000 - Math.round(n * 10_000)) < 1e-6, '价格最多 4 位小数');

const skuFields = {
  hostId: int(1, 2_147_483_647, '主机'),
  gpuModel: required(64, 'GPU 型号'),
  gpuBrand: required(32, 'GPU 品牌'),
  memoryGb: int(1, 1024, '显存'),
  cpuPerGpu: int(0, 512, '每卡 CPU 核数'),
  memoryPerGpuGb: int(0, 4096, '每卡内存'),
  systemDiskGb: int(1, 10_000, '系统盘'),
  dataDiskGb: int(0, 100_000, '数据盘'),
  hourlyPrice: priceYuanSchema,
  listed: z.boolean({ message: '上架状态必须是布尔值' }),
};
export const gpuSkuCreateSchema = z.object({
  ...skuFields,
  gpuBrand: skuFields.gpuBrand.default('NVIDIA'),
  cpuPerGpu: skuFields.cpuPerGpu.default(8),
  memoryPerGpuGb: skuFields.memoryPerGpuGb.default(32),
  systemDiskGb: skuFields.systemDiskGb.default(30),
  dataDiskGb: skuFields.dataDiskGb.default(50),
  listed: skuFields.listed.default(true),
});
export type GpuSkuCreateInput = z.infer<typeof gpuSkuCreateSchema>;
const { hostId: _hostId, ...skuEditable } = skuFields;
export const gpuSkuUpdateSchema = z.object(skuEditable).partial().strict();
export type GpuSkuUpdateInput = z.infer<typeof gpuSkuUpdateSchema>;
export const gpuSkuQuerySchema = z.object({
  ...pageQuery,
  hostId: idSchema('主机编号无效').optional(),
  regionId: idSchema('地区编号无效').optional(),
  gpuModel: line(64, 'GPU 型号').optional(),
  listed: boolQuery.optional(),
});
export type GpuSkuQuery = z.infer<typeof gpuSkuQuerySchema>;

export const gpuSkuSyncResultSchema = z.object({
  hosts: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unlisted: z.number().int(),
});
export type GpuSkuSyncResult = z.infer<typeof gpuSkuSyncResultSchema>;
