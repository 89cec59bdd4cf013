import type { MetricsRange } from '@gpu/shared/monitoring';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { chartSpecs } from '../chart-options';
import type { MetricsView } from '../metrics-view';
import styles from './MetricsCharts.module.css';

// The same parts as the dashboard's trend chart, so both share one echarts chunk.
echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** The charts of one instance or host, each in its own figure with a caption (loaded on first use). */
export default function MetricsCharts({
  view,
  range,
  now,
  height = 220,
}: {
  view: MetricsView;
  range: MetricsRange;
  now: number;
  height?: number;
}) {
  const specs = useMemo(() => chartSpecs(view, range, now), [view, range, now]);
  return (
    <div className={styles.grid}>
      {specs.map((spec) => (
        <figure
          key={spec.key}
          className={styles.chart}
          data-testid={`metrics-chart-${spec.key}`}
          data-points={spec.points}
          data-series={spec.series}
        >
          <figcaption className={styles.caption}>{spec.title}</figcaption>
          <ReactEChartsCore echarts={echarts} option={spec.option} style={{ height }} notMerge lazyUpdate />
        </figure>
      ))}
    </div>
  );
}
