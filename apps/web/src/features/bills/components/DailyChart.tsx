import type { DailyConsumption } from '@gpu/shared/bills';
import { formatMoney } from '@gpu/shared/money';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { t } from '../../../locales/zh-CN';

// Only what a bar chart with axes and a tooltip needs: keeps this chunk small.
echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

/** Spend per day (Asia/Shanghai) of the last 30 days as bars. */
export default function DailyChart({
  data,
  color,
  height = 280,
}: {
  data: DailyConsumption;
  color: string;
  height?: number;
}) {
  const option = useMemo(
    () => ({
      color: [color],
      grid: { left: 8, right: 12, top: 24, bottom: 4, containLabel: true },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        valueFormatter: (v: unknown) => formatMoney(Number(v)),
      },
      xAxis: {
        type: 'category',
        data: data.map((d) => d.date.slice(5)),
        axisTick: { show: false },
        axisLine: { lineStyle: { color: '#d9dbe6' } },
        axisLabel: { color: '#8a8fa3', hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        minInterval: 0.01,
        splitLine: { lineStyle: { color: '#eef0f5' } },
        axisLabel: { color: '#8a8fa3', formatter: (v: number) => formatMoney(v) },
      },
      series: [
        {
          name: t.overview.chartSeries,
          type: 'bar',
          barMaxWidth: 18,
          itemStyle: { borderRadius: [4, 4, 0, 0] },
          data: data.map((d) => d.amount),
        },
      ],
    }),
    [data, color],
  );
  return (
    <div data-testid="daily-chart" data-points={data.length}>
      <ReactEChartsCore echarts={echarts} option={option} style={{ height }} notMerge lazyUpdate />
    </div>
  );
}
