import { formatMoney } from '@gpu/shared/money';
import { DASHBOARD_LOW_BALANCE_DEFAULT, DASHBOARD_PERIODS } from '@gpu/shared/ops-dashboard';
import { Card, Empty, InputNumber, Segmented, Select } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { ta } from '../../../../locales/zh-CN.admin';
import { useTenants } from '../../../admin-catalogue';
import { type DashboardFilters, useOpsDashboard } from '../../api/dashboard';
import { AdjustBalanceModal } from '../AdjustBalanceModal';
import { LoadError } from '../LoadError';
import { RefreshButton } from '../RefreshButton';
import { StatCards } from '../StatCards';
import styles from './dashboard.module.css';
import { FailedPanel, LowBalancePanel, OccupancyPanel, StalePanel } from './Panels';

// echarts is its own chunk (as the console's DailyChart): the figures and lists show without it.
const TrendChart = lazy(() => import('./TrendChart'));

const d = ta.adminDashboard;

/**
 * The operations half of /admin/dashboard: for a period of Shanghai days, money trends, GPU
 * occupancy, failed creates, hosts not seen and low balances (each one click from 调整余额).
 */
export function OpsDashboard() {
  const [q, setQ] = useState<DashboardFilters>({ days: 7, lowBalance: DASHBOARD_LOW_BALANCE_DEFAULT });
  const [adjusting, setAdjusting] = useState<{ id: number; phone: string } | null>(null);
  const dash = useOpsDashboard(q);
  const tenants = useTenants();
  const data = dash.data;
  const loading = dash.isPending;
  const quiet = data ? Object.values(data.totals).every((v) => v === 0) : false;

  return (
    <div className={styles.grid} data-testid="ops-dashboard">
      <div className={`${styles.toolbar} ${styles.wide}`}>
        <Segmented
          value={q.days}
          onChange={(v) => setQ({ ...q, days: Number(v) })}
          options={DASHBOARD_PERIODS.map((p) => ({ value: p, label: d.periods[p] }))}
          aria-label={d.period}
          data-testid="dashboard-period"
        />
        <Select
          className={styles.tenant}
          value={q.tenantId ?? 0}
          onChange={(v: number) => setQ({ ...q, tenantId: v || undefined })}
          loading={tenants.isPending}
          options={[
            { value: 0, label: d.allTenants },
            ...(tenants.data ?? []).map((x) => ({ value: x.id, label: x.name })),
          ]}
          aria-label={d.tenant}
          data-testid="dashboard-tenant"
        />
        <RefreshButton query={dash} onClick={() => void dash.refetch()} />
      </div>
      {dash.isError && !data ? (
        <div className={styles.wide}>
          <LoadError onRetry={() => void dash.refetch()} />
        </div>
      ) : null}
      <div className={styles.wide}>
        <StatCards
          loading={loading}
          computedAt={data?.computedAt}
          items={[
            { key: 'recharge', label: d.totals.recharge, value: formatMoney(data?.totals.recharge ?? 0) },
            {
              key: 'consumption',
              label: d.totals.consumption,
              value: formatMoney(data?.totals.consumption ?? 0),
            },
            { key: 'revenue', label: d.totals.revenue, value: formatMoney(data?.totals.revenue ?? 0) },
            {
              key: 'failed',
              label: d.totals.failed,
              value: data?.failedCreates.count,
              danger: (data?.failedCreates.count ?? 0) > 0,
            },
            {
              key: 'stale',
              label: d.totals.stale,
              value: data?.staleHosts.list.length,
              danger: (data?.staleHosts.list.length ?? 0) > 0,
            },
            { key: 'low', label: d.totals.lowBalance, value: data?.lowBalance.count },
          ]}
        />
      </div>
      <Card className={styles.wide} title={d.trendTitle} loading={loading} data-testid="card-trend">
        <p className={styles.hint}>{d.trendHint}</p>
        {data && quiet ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={d.noMoney} />
        ) : data ? (
          <Suspense fallback={<div style={{ height: 300 }} />}>
            <TrendChart trend={data.trend} />
          </Suspense>
        ) : null}
      </Card>
      <Card title={d.occupancyTitle} loading={loading} data-testid="card-occupancy">
        {data ? <OccupancyPanel data={data} /> : null}
      </Card>
      <Card
        title={d.failedTitle}
        extra={data ? <span className={styles.meta}>{d.failedCount(data.failedCreates.count)}</span> : null}
        loading={loading}
        data-testid="card-failed"
      >
        {data ? <FailedPanel data={data.failedCreates} /> : null}
      </Card>
      <Card title={d.staleTitle} loading={loading} data-testid="card-stale">
        {data ? (
          <>
            <p className={styles.hint}>{d.staleHint(data.staleHosts.minutes)}</p>
            <StalePanel data={data.staleHosts} />
          </>
        ) : null}
      </Card>
      <Card
        title={d.lowTitle}
        extra={
          <InputNumber
            size="small"
            min={0}
            max={1_000_000}
            precision={2}
            value={q.lowBalance}
            onChange={(v) => setQ({ ...q, lowBalance: v ?? 0 })}
            aria-label={d.threshold}
            prefix="¥"
            style={{ width: 120 }}
            data-testid="low-threshold"
          />
        }
        loading={loading}
        data-testid="card-low"
      >
        {data ? (
          <>
            <p className={styles.hint}>
              {d.lowHint(formatMoney(data.lowBalance.threshold), data.lowBalance.count)}
            </p>
            <LowBalancePanel data={data.lowBalance} onAdjust={setAdjusting} />
          </>
        ) : null}
      </Card>
      <AdjustBalanceModal user={adjusting} onClose={() => setAdjusting(null)} />
    </div>
  );
}
