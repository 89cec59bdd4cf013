import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GpuSparkline } from './GpuSparkline';

const coords = (el: Element | null) =>
  (el?.getAttribute('points') ?? '').split(' ').map((p) => p.split(',').map(Number) as [number, number]);

describe('GpuSparkline', () => {
  it('draws the hour on a fixed 0–100 % scale with the latest figure and a label saying so', () => {
    const points: number[] = Array.from({ length: 60 }, (_, i) => (i < 30 ? 0 : 100));
    points[59] = 34.6;
    render(<GpuSparkline points={points} />);
    const spark = screen.getByRole('img', { name: '近 1 小时 GPU 利用率，最新 35%' });
    expect(spark.textContent).toBe('35%');
    const line = coords(spark.querySelector('polyline'));
    expect(line).toHaveLength(60);
    expect(line[0]).toEqual([0, 19]); // 0 % at the bottom
    expect(line[30]?.[1]).toBe(1); // 100 % at the top
    expect(line[59]?.[0]).toBe(64); // the latest minute at the right edge
    expect(line[59]?.[1]).toBeCloseTo(19 - 0.346 * 18, 1);
  });

  it('keeps figures from outside 0–100 inside the drawing, and draws a single minute as a flat line', () => {
    const { rerender } = render(<GpuSparkline points={[-5, 130]} />);
    expect(coords(screen.getByTestId('gpu-sparkline').querySelector('polyline'))).toEqual([
      [0, 19],
      [64, 1],
    ]);
    rerender(<GpuSparkline points={[50]} />);
    expect(coords(screen.getByTestId('gpu-sparkline').querySelector('polyline'))).toEqual([
      [0, 10],
      [64, 10],
    ]);
  });

  it('says 暂无数据 with no samples yet', () => {
    render(<GpuSparkline points={[]} />);
    expect(screen.getByTestId('gpu-sparkline-none').textContent).toBe('暂无数据');
    expect(screen.queryByRole('img')).toBeNull();
  });
});
