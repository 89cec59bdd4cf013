import { describe, expect, it } from 'vitest';
import { clampGpuCount, gpuCountBounds } from './gpu-count';
import { marketItem } from './test-fixtures';

describe('GPU count (SPEC.md §5)', () => {
  it('is 1 to min(idle GPUs, 8)', () => {
    expect(gpuCountBounds(marketItem({ gpuIdleNum: 3 }))).toEqual({ min: 1, max: 3, fixed: false });
    expect(gpuCountBounds(marketItem({ gpuIdleNum: 8 }))).toEqual({ min: 1, max: 8, fixed: false });
    expect(gpuCountBounds(marketItem({ gpuNum: 16, gpuIdleNum: 12 }))).toEqual({
      min: 1,
      max: 8,
      fixed: false,
    });
    expect(gpuCountBounds(marketItem({ gpuIdleNum: 1 }))).toEqual({ min: 1, max: 1, fixed: false });
  });

  it('allows nothing when no GPU is idle', () => {
    const bounds = gpuCountBounds(marketItem({ gpuIdleNum: 0 }));
    expect(bounds.max).toBe(0);
    expect(clampGpuCount(1, bounds)).toBe(1);
  });

  it('fixes an overseas (vast-) package to its GPU count', () => {
    const bounds = gpuCountBounds(marketItem({ skuGpuId: 'vast-123', gpuNum: 4, gpuIdleNum: 4 }));
    expect(bounds).toEqual({ min: 4, max: 4, fixed: true });
    expect(clampGpuCount(1, bounds)).toBe(4);
    expect(clampGpuCount(8, bounds)).toBe(4);
  });

  it('clamps a wanted count into the bounds (idle GPUs can drop while the page is open)', () => {
    const bounds = gpuCountBounds(marketItem({ gpuIdleNum: 5 }));
    expect(clampGpuCount(0, bounds)).toBe(1);
    expect(clampGpuCount(3, bounds)).toBe(3);
    expect(clampGpuCount(7, bounds)).toBe(5);
    expect(clampGpuCount(2.7, bounds)).toBe(2);
    expect(clampGpuCount(Number.NaN, bounds)).toBe(1);
  });
});
