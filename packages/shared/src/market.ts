import { z } from 'zod';
import {
  BILLING_TYPES,
  GPU_COUNT_MAX,
  GPU_COUNT_MIN,
  MARKET_DEFAULT_PAGE_SIZE,
  MARKET_PAGE_SIZES,
} from './constants.ts';
import { idSchema } from './input.ts';

/** One card of the GPU market (SPEC.md §3). Prices are yuan per hour. */
export const marketItemSchema = z
  .object({
    id: z.number().int(),
    skuGpuId: z.string(),
    gpuName: z.string(),
    gpuBrand: z.string(),
    memoryGb: z.number(),
    hostName: z.string(),
    regionId: z.number().int(),
    regionName: z.string(),
    cpuPerGpu: z.number(),
    cpuInfo: z.string(),
    systemDiskGb: z.number(),
    dataDiskGb: z.number(),
    gpuNum: z.number().int(),
    gpuIdleNum: z.number().int(),
    price: z.number(),
    docker: z.boolean(),
    nvidiaDriver: z.string(),
    cudaVersion: z.string(),
    isLocalDocker: z.boolean(),
    /** SPEC.md §3 client-side fields, computed by the server. */
    originalPrice: z.number(),
    discountPrice: z.number(),
    discountRate: z.number(),
    hasDiscount: z.boolean(),
    discountDescription: z.string(),
    discountEndTime: z.string().nullable(),
    /** For daily/weekly/monthly browsing: one GPU for one period, before and after discount. */
    packagePrice: z.number().nullable(),
    packageDiscountPrice: z.number().nullable(),
  })
  .meta({
    // What the API documentation shows: an RTX 4090 machine, 1.98 yuan per GPU-hour.
    examples: [
      {
        id: 1,
        skuGpuId: 'ah-a-4090-01:RTX 4090',
        gpuName: 'RTX 4090',
        gpuBrand: 'NVIDIA',
        memoryGb: 24,
        hostName: 'ah-a-4090-01',
        regionId: 1,
        regionName: '安徽A区',
        cpuPerGpu: 16,
        cpuInfo: 'Intel Xeon Platinum 8352V',
        systemDiskGb: 30,
        dataDiskGb: 50,
        gpuNum: 8,
        gpuIdleNum: 5,
        price: 1.98,
        docker: true,
        nvidiaDriver: '550.54.15',
        cudaVersion: '12.4',
        isLocalDocker: true,
        originalPrice: 2.2,
        discountPrice: 1.98,
        discountRate: 0.9,
        hasDiscount: true,
        discountDescription: '新用户9折',
        discountEndTime: '2026-12-31T23:59:59.000+08:00',
        packagePrice: null,
        packageDiscountPrice: null,
      },
    ],
  });
export type MarketItem = z.infer<typeof marketItemSchema>;

export const marketListSchema = z.object({
  list: z.array(marketItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  /** ISO time of the last sync from the host drivers, null before the first. */
  lastSyncedAt: z.string().nullable(),
  /** Filter choices for this tenant: regions in SPEC order, GPU models (at most 20). */
  regions: z.array(z.object({ id: z.number().int(), name: z.string(), overseas: z.boolean() })),
  gpuModels: z.array(z.string()),
});
export type MarketList = z.infer<typeof marketListSchema>;

/** `vast-` prefix marks an overseas package (SPEC.md §3). */
export const OVERSEAS_SKU_PREFIX = 'vast-';
export const isOverseasSku = (skuGpuId: string) => skuGpuId.startsWith(OVERSEAS_SKU_PREFIX);

export const marketQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce
    .number()
    .int()
    .refine(
      (n) => (MARKET_PAGE_SIZES as readonly number[]).includes(n),
      `每页条数只能是 ${MARKET_PAGE_SIZES.join('、')}`,
    )
    .default(MARKET_DEFAULT_PAGE_SIZE),
  billingType: z
    .enum(BILLING_TYPES, { message: '计费方式只能是 hourly、daily、weekly 或 monthly' })
    .default('hourly'),
  regionId: idSchema('地区编号无效').optional(),
  gpuModel: z.string().trim().max(64).optional(),
  gpuCount: z.coerce
    .number()
    .int()
    .min(GPU_COUNT_MIN, `GPU数量须为${GPU_COUNT_MIN}-${GPU_COUNT_MAX}`)
    .max(GPU_COUNT_MAX, `GPU数量须为${GPU_COUNT_MIN}-${GPU_COUNT_MAX}`)
    .optional(),
  /** Case-insensitive search over host names (SPEC.md §5). */
  keyword: z.string().trim().max(64).optional(),
});
export type MarketQuery = z.infer<typeof marketQuerySchema>;

export const marketSyncResultSchema = z.object({
  /** False when a sync ran within the last 30 s; the answer is then that sync's result. */
  synced: z.boolean(),
  lastSyncedAt: z.string(),
  hostsChecked: z.number().int(),
  hostsReachable: z.number().int(),
  /** Hosts that were unreachable or lost GPUs. */
  changes: z.array(
    z.object({
      hostName: z.string(),
      reachable: z.boolean(),
      gpus: z.number().int(),
      removedGpus: z.number().int(),
      missingGpus: z.number().int(),
      error: z.string().nullable(),
    }),
  ),
});
export type MarketSyncResult = z.infer<typeof marketSyncResultSchema>;

/** What a customer's market page learns from a sync: no host, count or driver error (issue 26). */
export const marketSyncAnswerSchema = marketSyncResultSchema.pick({ synced: true, lastSyncedAt: true });
export type MarketSyncAnswer = z.infer<typeof marketSyncAnswerSchema>;
