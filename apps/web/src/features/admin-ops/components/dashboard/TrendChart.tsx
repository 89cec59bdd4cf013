import { formatMoney, formatMoneyAxis } from '@gpu/shared/money';
import type { OpsDashboard } from '@gpu/shared/ops-dashboard';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { ta } from '../../../../locales/zh-CN.admin';

// Only what a line chart with axes, legend and tooltip needs: keeps the page's chunk small.
echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const d = ta.adminDashboard;
const COLORS = ['#1677ff', '#fa8c16', '#52c41a'];

/** Recharge, consumption and revenue per Shanghai day; resizes with its container (phones too). */
export default function TrendChart({
  trend,
  height = 300,
}: {
  trend: OpsDashboard['trend'];
  height?: number;
}) {
  const option = useMemo(
    () => ({
      color: COLORS,
      grid: { left: 8, right: 16, top: 40, bottom: 4, containLabel: true },
      legend: { top: 0, itemWidth: 14, itemHeight: 8 },
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => formatMoney(Number(v)) },
      xAxis: {
        type: 'category',
        boundaryGap: false,
        data: trend.map((p) => p.date.slice(5)),
        axisTick: { show: false },
        axisLine: { lineStyle: { color: '#d9dbe6' } },
        axisLabel: { color: '#8a8fa3', hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        splitLine: { lineStyle: { color: '#eef0f5' } },
        axisLabel: { color: '#8a8fa3', formatter: formatMoneyAxis },
      },
      series: (
        [
          ['recharge', d.recharge],
          ['consumption', d.consumption],
          ['revenue', d.revenue],
        ] as const
      ).map(([key, name]) => ({
        name,
        type: 'line',
        smooth: true,
        showSymbol: trend.length <= 31,
        data: trend.map((p) => p[key]),
      })),
    }),
    [trend],
  );
  return (
    <div data-testid="dashboard-trend" data-points={trend.length} style={{ minWidth: 0 }}>
      <ReactEChartsCore echarts={echarts} option={option} style={{ height }} notMerge lazyUpdate />
    </div>
  );
}
