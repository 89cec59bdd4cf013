import type { MetricsRange } from '@gpu/shared/monitoring';
import { GIB, gbOf } from '@gpu/shared/sizes';
import { formatTime, SHANGHAI_OFFSET_MS, type TimePattern } from '@gpu/shared/time';
import { tmon } from '../../locales/zh-CN.monitoring';
import type { MetricsView } from './metrics-view';

const m = tmon;

export type ChartKey = 'gpuUtil' | 'gpuMem' | 'cpu' | 'memory' | 'disk';
export interface ChartSpec {
  key: ChartKey;
  title: string;
  /** How many points each line has (the browser tests read it). */
  points: number;
  series: number;
  option: Record<string, unknown>;
}

const RANGE_MS: Record<MetricsRange, number> = {
  '1h': 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
  '30d': 30 * 24 * 3_600_000,
};
const AXIS_LABEL: Record<MetricsRange, TimePattern> = {
  '1h': 'HH:mm',
  '24h': 'HH:mm',
  '7d': 'MM-DD HH:mm',
  '30d': 'MM-DD',
};

// ECharts places time ticks by the browser's zone or by UTC (useUTC). The platform shows
// Asia/Shanghai everywhere, so the axis runs in UTC on instants moved by Shanghai's offset: ticks
// then fall on Shanghai's whole hours and midnights, and labels go back through formatTime.
const toAxis = (ms: number) => ms + SHANGHAI_OFFSET_MS;
const axisTime = (v: number, pattern: TimePattern) => formatTime(v - SHANGHAI_OFFSET_MS, pattern);

const percent = (v: unknown) => (typeof v === 'number' ? m.percent(Math.round(v)) : '-');
const gib = (v: unknown) => (typeof v === 'number' ? m.gb(gbOf(v * GIB)) : '-');
/** Axis ticks are ECharts' round numbers (20, 40 or 0.5, 1): shown as they are. */
const gibTick = (v: number) => m.gb(String(v));

interface Line {
  name: string;
  values: (number | null)[];
  dashed?: boolean;
  area?: boolean;
}

function lineChart(
  view: MetricsView,
  range: MetricsRange,
  now: number,
  lines: Line[],
  unit: 'percent' | 'gib',
  yMax?: number,
): Pick<ChartSpec, 'points' | 'series' | 'option'> {
  const format = unit === 'percent' ? percent : gib;
  const raw = view.stepSeconds < 60;
  return {
    points: view.times.length,
    series: lines.length,
    option: {
      animation: false,
      useUTC: true,
      grid: { left: 8, right: 16, top: lines.length > 1 ? 36 : 16, bottom: 4, containLabel: true },
      legend: lines.length > 1 ? { top: 0, type: 'scroll', itemWidth: 14, itemHeight: 8 } : undefined,
      tooltip: { trigger: 'axis', valueFormatter: format },
      xAxis: {
        type: 'time',
        min: toAxis(now - RANGE_MS[range]),
        max: toAxis(now),
        axisTick: { show: false },
        axisLine: { lineStyle: { color: '#d9dbe6' } },
        axisLabel: {
          color: '#8a8fa3',
          hideOverlap: true,
          formatter: (v: number) => axisTime(v, AXIS_LABEL[range]),
        },
        axisPointer: {
          label: {
            formatter: (p: { value: number }) =>
              axisTime(p.value, raw ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm'),
          },
        },
        splitLine: { show: false },
      },
      yAxis: {
        type: 'value',
        min: 0,
        max: yMax,
        splitLine: { lineStyle: { color: '#eef0f5' } },
        axisLabel: { color: '#8a8fa3', formatter: unit === 'percent' ? percent : gibTick },
      },
      series: lines.map((line) => ({
        name: line.name,
        type: 'line',
        showSymbol: false,
        // A month of 15 s points is more than a chart has pixels: keep each peak, drop the rest.
        sampling: 'lttb',
        lineStyle: { width: 1.5, type: line.dashed ? 'dashed' : 'solid' },
        areaStyle: line.area ? { opacity: 0.12 } : undefined,
        data: view.times.map((at, i) => [toAxis(at), line.values[i] ?? null]),
      })),
    },
  };
}

/** The five charts of a series: GPU utilisation and memory per GPU, CPU, memory, disk. */
export function chartSpecs(view: MetricsView, range: MetricsRange, now: number): ChartSpec[] {
  const gpus = Array.from({ length: view.gpuCount }, (_, g) => g);
  const withLimit = (values: (number | null)[], limit: (number | null)[] | null): Line[] => [
    { name: m.used, values, area: true },
    ...(limit?.some((v) => v !== null) ? [{ name: m.limit, values: limit, dashed: true }] : []),
  ];
  const specs: ChartSpec[] = [];
  if (view.gpuCount > 0) {
    specs.push({
      key: 'gpuUtil',
      title: m.gpuUtil,
      ...lineChart(
        view,
        range,
        now,
        gpus.map((g) => ({ name: m.gpu(g), values: view.gpuUtil[g] ?? [] })),
        'percent',
        100,
      ),
    });
    specs.push({
      key: 'gpuMem',
      title: m.gpuMem,
      ...lineChart(
        view,
        range,
        now,
        gpus.map((g) => ({ name: m.gpu(g), values: view.gpuMem[g] ?? [] })),
        'gib',
        // The whole memory of the largest GPU, to the next whole GB (80 GB, not 79.6).
        view.gpuMemTotal === null ? undefined : Math.ceil(view.gpuMemTotal),
      ),
    });
  }
  specs.push({
    key: 'cpu',
    title: m.cpu,
    ...lineChart(view, range, now, [{ name: m.cpu, values: view.cpuPercent, area: true }], 'percent'),
  });
  specs.push({
    key: 'memory',
    title: m.memory,
    ...lineChart(view, range, now, withLimit(view.memUsed, view.memLimit), 'gib'),
  });
  specs.push({
    key: 'disk',
    title: m.disk,
    ...lineChart(view, range, now, withLimit(view.diskUsed, view.diskLimit), 'gib'),
  });
  return specs;
}
