import { z } from 'zod';
import { idSchema } from './input.ts';
import { instanceNameSchema } from './instances.ts';

/** SPEC.md §9: an overseas package's disk and duration. */
export const OVERSEAS_DISK_GB = 10;
export const OVERSEAS_DURATION = 1;
/** SPEC.md §9: the model filter offers B200 when overseas packages are shown. */
export const OVERSEAS_EXTRA_MODEL = 'B200';

/** An image runs on an offer when its CUDA is at most the offer's ("12.4" ≤ "12.10" as versions). */
export function cudaAtMost(image: string, offer: string): boolean {
  if (!image) return true;
  if (!offer) return false;
  const [a1 = 0, a2 = 0] = image.split('.').map(Number);
  const [b1 = 0, b2 = 0] = offer.split('.').map(Number);
  return a1 < b1 || (a1 === b1 && a2 <= b2);
}

export const vastaiMessages = {
  notConfigured: '海外 GPU（vast.ai）未配置',
  offerGone: '该海外机器已被租用或下架，请选择其他机器',
  imageUnavailable: '该镜像不能用于这台海外机器',
  diskInvalid: `磁盘大小只能是 ${OVERSEAS_DISK_GB} GB`,
} as const;

/** SPEC.md §3 overseas create: offerId, label, diskSpace, image. */
export const vastaiCreateRequestSchema = z.object({
  offerId: idSchema('机器编号无效'),
  label: instanceNameSchema,
  diskSpace: z.coerce
    .number({ message: vastaiMessages.diskInvalid })
    .refine((n) => n === OVERSEAS_DISK_GB, vastaiMessages.diskInvalid)
    .default(OVERSEAS_DISK_GB),
  image: z.string({ message: '请选择镜像' }).trim().min(1, '请选择镜像').max(300, '镜像地址过长'),
});
export type VastaiCreateRequest = z.infer<typeof vastaiCreateRequestSchema>;

export const vastaiStatusSchema = z.object({
  configured: z.boolean(),
  /** Chinese text for the overseas area (not configured, last refresh failed…). */
  message: z.string().nullable(),
  lastRefreshAt: z.string().nullable(),
  lastRefreshOk: z.boolean().nullable(),
  offerCount: z.number().int(),
});
export type VastaiStatus = z.infer<typeof vastaiStatusSchema>;

export const vastaiOfferSchema = z.object({
  offerId: z.number().int(),
  skuGpuId: z.string(),
  gpuName: z.string(),
  gpuNum: z.number().int(),
  memoryGb: z.number().int(),
  cpuInfo: z.string(),
  cpuCores: z.number().int(),
  diskGb: z.number().int(),
  location: z.string(),
  cudaVersion: z.string(),
  /** Our price in yuan per GPU-hour (before tenant discounts). */
  price: z.number(),
  /** Image addresses this offer can run. */
  images: z.array(z.string()),
});
export type VastaiOffer = z.infer<typeof vastaiOfferSchema>;

export const vastaiSshInfoSchema = z.object({
  instanceId: z.number().int(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  command: z.string().nullable(),
  vastStatus: z.string().nullable(),
});
export type VastaiSshInfo = z.infer<typeof vastaiSshInfoSchema>;
