import {
  cudaAtMost,
  fenOfRatio,
  OVERSEAS_DISK_GB,
  OVERSEAS_SKU_PREFIX,
  unitsToYuan,
  type VastaiOffer,
} from '@gpu/shared';
import type { VastOffer } from '../hosts/index.ts';
import type { MarketRow } from '../market/index.ts';
import type { OfferRow } from './vastai.repository.ts';

export interface OverseasPricing {
  /** Yuan per US dollar. */
  usdCny: number;
  /** Percent on top of vast.ai's price. */
  marginPercent: number;
}

export const overseasSkuGpuId = (offerId: number) => `${OVERSEAS_SKU_PREFIX}${offerId}`;

/**
 * Our price of one GPU-hour of an offer, in units rounded to whole fen: vast.ai's dollars per
 * hour for the offer × rate × (1 + margin) ÷ GPUs. Integer maths from millionths of a dollar.
 */
export function overseasGpuHourUnits(usdMicrosPerHour: number, numGpus: number, p: OverseasPricing): number {
  const rate = BigInt(Math.round(p.usdCny * 10_000)); // yuan per dollar × 10⁴
  const margin = BigInt(Math.round((100 + p.marginPercent) * 100)); // percent × 100
  // micros × rate/10⁴ × margin/10⁴ yuan/10⁶ → units (×10⁴): divide by 10⁴ × 10⁴ × 10⁶ / 10⁴.
  const num = BigInt(usdMicrosPerHour) * rate * margin;
  const den = ((10_000n * 10_000n * 1_000_000n) / 10_000n) * BigInt(Math.max(numGpus, 1));
  return fenOfRatio(num, den);
}

const mbToGb = (mb: number | null | undefined) => Math.round((mb ?? 0) / 1024);

/** An offer from POST /bundles/ as the row the market and create read. */
export function offerRowOf(o: VastOffer, fetchedAt: Date): OfferRow {
  return {
    offerId: o.id,
    gpuName: o.gpu_name,
    numGpus: o.num_gpus,
    gpuMemoryGb: mbToGb(o.gpu_ram),
    cpuName: o.cpu_name ?? '',
    cpuCores: Math.floor(o.cpu_cores_effective ?? 0),
    memoryGb: mbToGb(o.cpu_ram),
    diskGb: Math.floor(o.disk_space ?? 0),
    usdMicrosPerHour: Math.round(o.dph_total * 1_000_000),
    geolocation: o.geolocation ?? '',
    cudaVersion: o.cuda_max_good ? String(o.cuda_max_good) : '',
    driverVersion: o.driver_version ?? '',
    fetchedAt,
  };
}

/** Offers that cannot take an overseas package (§9: disk 10 GB) or have no GPU are not sold. */
export const sellable = (o: OfferRow) =>
  o.numGpus > 0 && o.diskGb >= OVERSEAS_DISK_GB && o.usdMicrosPerHour > 0;

/** An offer as a market row of the overseas region: its GPUs are all idle (an offer rents whole). */
export function overseasMarketRow(
  o: OfferRow,
  place: { hostId: number; regionId: number; regionName: string },
  p: OverseasPricing,
): MarketRow {
  return {
    id: o.offerId,
    skuGpuId: overseasSkuGpuId(o.offerId),
    hostId: place.hostId,
    gpuModel: o.gpuName,
    gpuBrand: 'NVIDIA',
    memoryGb: o.gpuMemoryGb,
    cpuPerGpu: Math.floor(o.cpuCores / Math.max(o.numGpus, 1)),
    systemDiskGb: OVERSEAS_DISK_GB,
    dataDiskGb: 0,
    hourlyPrice: overseasGpuHourUnits(o.usdMicrosPerHour, o.numGpus, p),
    hostName: o.geolocation ? `vast.ai ${o.geolocation}` : 'vast.ai',
    hostDriver: 'vastai',
    cpuModel: o.cpuName,
    nvidiaDriver: o.driverVersion,
    cudaVersion: o.cudaVersion,
    regionId: place.regionId,
    regionName: place.regionName,
    regionCode: 'overseas',
    regionSort: Number.MAX_SAFE_INTEGER,
    overseas: true,
    gpuNum: o.numGpus,
    gpuIdleNum: o.numGpus,
    // Tenant package prices do not apply: an offer is sold by the hour only (§9).
    tenantDaily: null,
    tenantWeekly: null,
    tenantMonthly: null,
  };
}

export const imagesForOffer = (o: OfferRow, images: { imageUrl: string; cudaVersion: string }[]) =>
  images.filter((i) => cudaAtMost(i.cudaVersion, o.cudaVersion)).map((i) => i.imageUrl);

export function toVastaiOffer(o: OfferRow, p: OverseasPricing, images: string[]): VastaiOffer {
  return {
    offerId: o.offerId,
    skuGpuId: overseasSkuGpuId(o.offerId),
    gpuName: o.gpuName,
    gpuNum: o.numGpus,
    memoryGb: o.gpuMemoryGb,
    cpuInfo: o.cpuName,
    cpuCores: o.cpuCores,
    diskGb: o.diskGb,
    location: o.geolocation,
    cudaVersion: o.cudaVersion,
    price: unitsToYuan(overseasGpuHourUnits(o.usdMicrosPerHour, o.numGpus, p)),
    images,
  };
}

/** The SSH command users copy (vast.ai's proxy or direct address). */
export const sshCommandOf = (host: string | null, port: number | null) =>
  host && port ? `ssh -p ${port} root@${host}` : null;
