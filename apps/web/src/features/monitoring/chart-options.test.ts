import { describe, expect, it } from 'vitest';
import { chartSpecs } from './chart-options';
import { hostView, instanceView } from './metrics-view';
import { hostSeries, instanceSeries } from './test-series';

const NOW = Date.parse('2026-11-26T06:00:10.000Z');

type Option = {
  useUTC: boolean;
  xAxis: {
    min: number;
    max: number;
    axisLabel: { formatter: (v: number) => string };
    axisPointer: { label: { formatter: (p: { value: number }) => string } };
  };
  yAxis: { max?: number; axisLabel: { formatter: (v: number) => string } };
  tooltip: { valueFormatter: (v: unknown) => string };
  series: { name: string; data: [number, number | null][]; lineStyle: { type: string } }[];
};
const optionOf = (spec: { option: Record<string, unknown> } | undefined) => spec?.option as unknown as Option;

describe('instanceView', () => {
  it('keeps GPUs in order, turns sizes into GiB and takes the largest GPU as the memory top', () => {
    const view = instanceView(instanceSeries('1h', 3));
    expect(view.gpuCount).toBe(2);
    expect(view.times).toHaveLength(3);
    expect(view.gpuUtil).toEqual([
      [10, 11, 12],
      [90, 89, 88],
    ]);
    // Sizes in GiB: the axes then tick at whole GB.
    expect(view.gpuMem[0]).toEqual([1, 2, 3]);
    expect(view.gpuMemTotal).toBeCloseTo(79.65, 2);
    expect(view.memLimit).toEqual([64, 64, 64]);
  });

  it('breaks the lines where samples are missing (the instance was off), not across the pause', () => {
    const series = instanceSeries('1h', 4);
    // 10 minutes without samples between the 2nd and 3rd point.
    for (const p of series.points.slice(2)) p.at = new Date(Date.parse(p.at) + 600_000).toISOString();
    const view = instanceView(series);
    expect(view.times).toHaveLength(5);
    expect(view.cpuPercent).toEqual([120, 121, null, 122, 123]);
    expect(view.gpuUtil[1]).toEqual([90, 89, null, 88, 87]);
    expect(view.times[2]).toBe(Date.parse(series.points[1]?.at ?? '') + 15_000);
  });

  it('draws no limit line where none was set (0), and no GPU lines in no-GPU mode', () => {
    const series = instanceSeries('1h', 2);
    for (const p of series.points) {
      p.memLimitBytes = 0;
      p.gpuUtil = [];
      p.gpuMemUsedMib = [];
      p.gpuMemTotalMib = [];
    }
    const view = instanceView(series);
    expect(view.gpuCount).toBe(0);
    expect(view.gpuMemTotal).toBeNull();
    const specs = chartSpecs(view, '1h', NOW);
    expect(specs.map((s) => s.key)).toEqual(['cpu', 'memory', 'disk']);
    expect(optionOf(specs[1]).series.map((s) => s.name)).toEqual(['已用']);
    expect(optionOf(specs[2]).series.map((s) => s.name)).toEqual(['已用', '上限']);
  });
});

describe('chartSpecs', () => {
  it('draws one line per GPU, 0–100 %, CPU, memory and disk with their limits dashed', () => {
    const specs = chartSpecs(instanceView(instanceSeries('1h', 3)), '1h', NOW);
    expect(specs.map((s) => [s.key, s.title, s.series, s.points])).toEqual([
      ['gpuUtil', 'GPU 利用率', 2, 3],
      ['gpuMem', 'GPU 显存', 2, 3],
      ['cpu', 'CPU 使用率', 1, 3],
      ['memory', '内存', 2, 3],
      ['disk', '磁盘', 2, 3],
    ]);
    const util = optionOf(specs[0]);
    expect(util.series.map((s) => s.name)).toEqual(['GPU 0', 'GPU 1']);
    expect(util.series[1]?.data.map((d) => d[1])).toEqual([90, 89, 88]);
    expect(util.yAxis.max).toBe(100);
    expect(util.tooltip.valueFormatter(37.6)).toBe('38%');
    expect(util.tooltip.valueFormatter(null)).toBe('-');
    const mem = optionOf(specs[1]);
    expect(mem.yAxis.max).toBe(80);
    expect(mem.tooltip.valueFormatter(1.5)).toBe('1.5 GB');
    expect(mem.yAxis.axisLabel.formatter(20)).toBe('20 GB');
    expect(optionOf(specs[3]).series[1]?.lineStyle.type).toBe('dashed');
  });

  it('shows the whole range ending now, with times in Asia/Shanghai whatever the browser zone', () => {
    const util = optionOf(chartSpecs(instanceView(instanceSeries('1h', 3)), '1h', NOW)[0]);
    expect(util.useUTC).toBe(true);
    expect(util.xAxis.max - util.xAxis.min).toBe(3_600_000);
    const first = util.series[0]?.data[0]?.[0] ?? 0;
    // 2026-11-26T05:59:30Z is 13:59:30 in Shanghai.
    expect(util.xAxis.axisLabel.formatter(first)).toBe('13:59');
    expect(util.xAxis.axisPointer.label.formatter({ value: first })).toBe('2026-11-26 13:59:30');
    expect(util.xAxis.axisLabel.formatter(util.xAxis.max)).toBe('14:00');

    const month = optionOf(chartSpecs(instanceView(instanceSeries('30d', 3, 300)), '30d', NOW)[0]);
    expect(month.xAxis.max - month.xAxis.min).toBe(30 * 86_400_000);
    expect(month.xAxis.axisLabel.formatter(month.xAxis.max)).toBe('11-26');
    expect(month.xAxis.axisPointer.label.formatter({ value: month.xAxis.max })).toBe('2026-11-26 14:00');
  });

  it('draws a host by GPU index with summed CPU, memory and disk and no limit lines', () => {
    const specs = chartSpecs(hostView(hostSeries('24h', 5)), '24h', NOW);
    expect(specs.map((s) => [s.key, s.series])).toEqual([
      ['gpuUtil', 4],
      ['gpuMem', 4],
      ['cpu', 1],
      ['memory', 1],
      ['disk', 1],
    ]);
    const util = optionOf(specs[0]);
    expect(util.series.map((s) => s.name)).toEqual(['GPU 0', 'GPU 1', 'GPU 2', 'GPU 3']);
    expect(util.series[3]?.data.map((d) => d[1])).toEqual([100, 100, 100, 100, 100]);
    expect(optionOf(specs[1]).yAxis.max).toBeUndefined();
    expect(optionOf(specs[2]).yAxis.axisLabel.formatter(300)).toBe('300%');
  });
});
