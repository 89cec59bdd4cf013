import { type MarketItem, unitsToYuan } from '@gpu/shared';
import type { MarketRow } from './market.repository.ts';

export const skuGpuIdOf = (skuId: number) => `gpu-${skuId}`;

/** A SKU row as the market card of SPEC.md §3 (price in yuan per hour). */
export function toMarketItem(r: MarketRow): MarketItem {
  const local = r.hostDriver !== 'vastai';
  return {
    id: r.id,
    skuGpuId: skuGpuIdOf(r.id),
    gpuName: r.gpuModel,
    gpuBrand: r.gpuBrand,
    memoryGb: r.memoryGb,
    hostName: r.hostName,
    regionId: r.regionId,
    regionName: r.regionName,
    cpuPerGpu: r.cpuPerGpu,
    cpuInfo: r.cpuModel,
    systemDiskGb: r.systemDiskGb,
    dataDiskGb: r.dataDiskGb,
    gpuNum: r.gpuNum,
    gpuIdleNum: r.gpuIdleNum,
    price: unitsToYuan(r.hourlyPrice),
    docker: local,
    nvidiaDriver: r.nvidiaDriver,
    cudaVersion: r.cudaVersion,
    isLocalDocker: local,
  };
}
