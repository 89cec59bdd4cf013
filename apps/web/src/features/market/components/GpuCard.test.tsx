import type { MarketItem } from '@gpu/shared/market';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GpuCard } from './GpuCard';

const NOW = new Date('2026-01-01T00:00:00Z').getTime();

const item = (over: Partial<MarketItem> = {}): MarketItem => ({
  id: 1,
  skuGpuId: 'gpu-1',
  gpuName: 'RTX 4090',
  gpuBrand: 'NVIDIA',
  memoryGb: 24,
  hostName: 'ah-a-4090-01',
  regionId: 1,
  regionName: '安徽A区',
  cpuPerGpu: 16,
  cpuInfo: 'Intel Xeon Platinum 8352V',
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
  discountDescription: '安徽A区 RTX 4090 限时 8 折',
  discountEndTime: new Date(NOW + 90_000).toISOString(),
  packagePrice: null,
  packageDiscountPrice: null,
  ...over,
});

describe('<GpuCard>', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('shows every field, the 折 label, both prices and the countdown; reverts when the discount ends', () => {
    const onExpired = vi.fn();
    const onSubscribe = vi.fn();
    render(
      <GpuCard
        item={item()}
        billingType="hourly"
        overseas={false}
        onSubscribe={onSubscribe}
        onDiscountExpired={onExpired}
      />,
    );
    const card = screen.getByTestId('gpu-card');
    for (const text of [
      'RTX 4090',
      '24GB 显存',
      'ah-a-4090-01',
      '安徽A区',
      'Intel Xeon Platinum 8352V',
      '16核/GPU',
      '30 GB',
      '50 GB',
      '5/8',
      '安徽A区 RTX 4090 限时 8 折',
    ])
      expect(card.textContent).toContain(text);
    expect(screen.getByTestId('gpu-card-zhe').textContent).toBe('8折');
    expect(screen.getByTestId('gpu-card-per-hour').textContent).toBe('¥1.58/时');
    expect(screen.getByTestId('gpu-card-per-minute').textContent).toBe('¥0.03/分钟');
    expect(card.querySelector('s')?.textContent).toBe('¥1.98');
    expect(screen.getByRole('timer').textContent).toBe('01:30');

    fireEvent.click(screen.getByTestId('gpu-card-subscribe'));
    expect(onSubscribe).toHaveBeenCalledWith(expect.objectContaining({ skuGpuId: 'gpu-1' }));

    for (let i = 0; i < 90; i++) act(() => vi.advanceTimersByTime(1_000));
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('gpu-card-zhe')).toBeNull();
    expect(screen.queryByTestId('gpu-card-discount')).toBeNull();
    expect(screen.getByTestId('gpu-card-per-hour').textContent).toBe('¥1.98/时');
    expect(card.querySelector('s')).toBeNull();
  });

  it('shows a discount without an end time, without a countdown', () => {
    render(
      <GpuCard
        item={item({ discountEndTime: null })}
        billingType="hourly"
        overseas={false}
        onSubscribe={() => {}}
        onDiscountExpired={() => {}}
      />,
    );
    expect(screen.getByTestId('gpu-card-zhe').textContent).toBe('8折');
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('shows the package price per GPU in a package mode', () => {
    render(
      <GpuCard
        item={item({ packagePrice: 40.39, packageDiscountPrice: 32.31 })}
        billingType="daily"
        overseas={false}
        onSubscribe={() => {}}
        onDiscountExpired={() => {}}
      />,
    );
    const price = screen.getByTestId('gpu-card-price').textContent;
    expect(price).toContain('¥32.31/天');
    expect(price).toContain('¥40.39');
    expect(price).toContain('¥1.58/时');
  });

  it('disables subscribing without an idle GPU', () => {
    render(
      <GpuCard
        item={item({ gpuIdleNum: 0, hasDiscount: false })}
        billingType="hourly"
        overseas
        onSubscribe={() => {}}
        onDiscountExpired={() => {}}
      />,
    );
    const button = screen.getByTestId('gpu-card-subscribe') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.textContent).toBe('暂无空闲');
  });
});
