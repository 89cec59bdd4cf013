import { z } from 'zod';

/** One card of the GPU market (SPEC.md §3). Prices are yuan per hour. */
export const marketItemSchema = z.object({
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
});
export type MarketItem = z.infer<typeof marketItemSchema>;

export const marketListSchema = z.object({
  list: z.array(marketItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  /** ISO time of the last sync from the host drivers, null before the first. */
  lastSyncedAt: z.string().nullable(),
});
export type MarketList = z.infer<typeof marketListSchema>;

/** `vast-` prefix marks an overseas package (SPEC.md §3). */
export const OVERSEAS_SKU_PREFIX = 'vast-';
export const isOverseasSku = (skuGpuId: string) => skuGpuId.startsWith(OVERSEAS_SKU_PREFIX);
