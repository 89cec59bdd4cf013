import type { MarketItem } from '@gpu/shared/market';
import { describe, expect, it } from 'vitest';
import { cardPrices, dataDiskGb, subscribePath, systemDiskGb } from './market-item';

const item: MarketItem = {
  id: 1,
  skuGpuId: 'gpu-1',
  gpuName: 'RTX 4090',
  gpuBrand: 'NVIDIA',
  memoryGb: 24,
  hostName: 'ah-a-4090-01',
  regionId: 1,
  regionName: '安徽A区',
  cpuPerGpu: 16,
  cpuInfo: 'Intel Xeon',
  systemDiskGb: 0,
  dataDiskGb: 0,
  gpuNum: 8,
  gpuIdleNum: 5,
  price: 1.98,
  docker: true,
  nvidiaDriver: '550',
  cudaVersion: '12.4',
  isLocalDocker: true,
  originalPrice: 1.98,
  discountPrice: 1.58,
  discountRate: 0.8,
  hasDiscount: true,
  discountDescription: '限时 8 折',
  discountEndTime: '2026-01-01T00:10:00Z',
  packagePrice: 40.39,
  packageDiscountPrice: 32.31,
};

describe('market card figures', () => {
  it('shows the default disks (30 GB system, 50 GB data) when missing', () => {
    expect(systemDiskGb(item)).toBe(30);
    expect(dataDiskGb(item)).toBe(50);
    expect(systemDiskGb({ ...item, systemDiskGb: 100 })).toBe(100);
    expect(dataDiskGb({ ...item, dataDiskGb: 450 })).toBe(450);
    // An overseas offer (§9: 10 GB disk, no data disk) shows its own figures, not the defaults.
    expect(systemDiskGb({ ...item, skuGpuId: 'vast-77', systemDiskGb: 10 })).toBe(10);
    expect(dataDiskGb({ ...item, skuGpuId: 'vast-77', dataDiskGb: 0 })).toBe(0);
  });

  it('pay-as-you-go: discounted per hour and per minute, the original per hour struck', () => {
    const p = cardPrices(item, 'hourly', true);
    expect(p.perHour).toBeCloseTo(1.58);
    expect(p.perMinute).toBeCloseTo(1.58 / 60);
    expect(p.originalPerHour).toBe(1.98);
    expect(p.packagePrice).toBeNull();
  });

  it('an ended discount shows the original price only', () => {
    const p = cardPrices(item, 'hourly', false);
    expect(p).toMatchObject({ perHour: 1.98, originalPerHour: null });
    expect(cardPrices({ ...item, hasDiscount: false }, 'hourly', true).originalPerHour).toBeNull();
  });

  it('a price under 1 yuan is already per minute (SPEC.md §9)', () => {
    const p = cardPrices({ ...item, hasDiscount: false, originalPrice: 0.05 }, 'hourly', true);
    expect(p.perMinute).toBe(0.05);
    expect(p.perHour).toBeCloseTo(3);
  });

  it('package modes show the package price per GPU, discounted, with the original struck', () => {
    expect(cardPrices(item, 'daily', true)).toMatchObject({
      packagePrice: 32.31,
      originalPackagePrice: 40.39,
    });
    expect(cardPrices(item, 'daily', false)).toMatchObject({
      packagePrice: 40.39,
      originalPackagePrice: null,
    });
  });

  it('subscribes with the SKU and the billing mode', () => {
    expect(subscribePath(item, 'weekly')).toBe('/subscribe?skuGpuId=gpu-1&billingType=weekly');
  });
});
