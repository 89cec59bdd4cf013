import { ReloadOutlined } from '@ant-design/icons';
import { METRICS_RANGES, type MetricsRange } from '@gpu/shared/monitoring-constants';
import { formatTime } from '@gpu/shared/time';
import { Button, Empty, Result, Segmented, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { tmon } from '../../../locales/zh-CN.monitoring';
import type { MetricsView } from '../metrics-view';
import styles from './monitoring.module.css';

const m = tmon;

// echarts is its own chunk (shared with the other charts): the range switch and states show first.
const MetricsCharts = lazy(() => import('./MetricsCharts'));

/** What the panel needs of a metrics query (TanStack Query's result fits). */
export interface MetricsQuery {
  data: MetricsView | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: Error | null;
  dataUpdatedAt: number;
  refetch: () => unknown;
}

const Centered = ({ children, testId }: { children: React.ReactNode; testId: string }) => (
  <div className={styles.state} data-testid={testId}>
    {children}
  </div>
);

/** The range switch (1小时/24小时/7天/30天), when the data was read, and the charts or their state. */
export function MetricsPanel({
  range,
  onRange,
  query,
  emptyText,
}: {
  range: MetricsRange;
  onRange: (range: MetricsRange) => void;
  query: MetricsQuery;
  emptyText: string;
}) {
  const view = query.data;
  let body: React.ReactNode;
  if (query.isPending) {
    body = (
      <Centered testId="metrics-loading">
        <Spin />
      </Centered>
    );
  } else if (!view) {
    body = (
      <Result
        status="warning"
        title={m.loadFailed}
        subTitle={query.error?.message}
        extra={<Button onClick={() => void query.refetch()}>{m.retry}</Button>}
        data-testid="metrics-error"
      />
    );
  } else if (view.times.length === 0) {
    body = (
      <Centered testId="metrics-empty">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
      </Centered>
    );
  } else {
    body = (
      <Suspense
        fallback={
          <Centered testId="metrics-loading">
            <Spin tip={m.chartLoading}>
              <span />
            </Spin>
          </Centered>
        }
      >
        <MetricsCharts view={view} range={range} now={query.dataUpdatedAt} />
      </Suspense>
    );
  }
  return (
    <div className={styles.panel} data-testid="metrics-panel" data-range={range}>
      <div className={styles.toolbar}>
        <Segmented<MetricsRange>
          value={range}
          onChange={onRange}
          options={METRICS_RANGES.map((r) => ({ value: r, label: m.ranges[r] }))}
          aria-label={m.range}
          data-testid="metrics-range"
        />
        <span className={styles.meta}>
          {view && view.times.length > 0 ? (
            <>
              {range === '1h' ? m.live : m.step(view.stepSeconds)}
              {' · '}
              {m.updatedAt(formatTime(query.dataUpdatedAt, 'HH:mm:ss'))}
            </>
          ) : null}
        </span>
        <Button
          size="small"
          icon={<ReloadOutlined spin={query.isFetching && !query.isPending} />}
          onClick={() => void query.refetch()}
          aria-label={m.refresh}
          data-testid="metrics-refresh"
        />
      </div>
      {body}
    </div>
  );
}
