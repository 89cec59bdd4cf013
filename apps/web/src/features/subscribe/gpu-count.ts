import { GPU_COUNT_MAX, GPU_COUNT_MIN } from '@gpu/shared/constants';
import type { MarketItem } from '@gpu/shared/market';
import { isOverseasSku } from '@gpu/shared/market';

export interface GpuCountBounds {
  min: number;
  /** 0 when the machine has no idle GPU: nothing can be ordered. */
  max: number;
  /** Overseas packages come with a fixed number of GPUs (SPEC.md §5). */
  fixed: boolean;
}

/** SPEC.md §5: 1 to min(idle GPUs, 8); an overseas (`vast-`) package is fixed to its GPU count. */
export function gpuCountBounds(item: Pick<MarketItem, 'skuGpuId' | 'gpuNum' | 'gpuIdleNum'>): GpuCountBounds {
  if (isOverseasSku(item.skuGpuId)) {
    const n = Math.max(GPU_COUNT_MIN, item.gpuNum);
    return { min: n, max: n, fixed: true };
  }
  const max = Math.max(0, Math.min(item.gpuIdleNum, GPU_COUNT_MAX));
  return { min: GPU_COUNT_MIN, max, fixed: false };
}

/** A count within the bounds (a fixed package always answers its count). */
export function clampGpuCount(count: number, bounds: GpuCountBounds): number {
  if (bounds.fixed) return bounds.max;
  if (bounds.max < bounds.min) return bounds.min;
  const n = Number.isFinite(count) ? Math.trunc(count) : bounds.min;
  return Math.min(bounds.max, Math.max(bounds.min, n));
}
