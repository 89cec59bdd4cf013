import { CheckCircleOutlined, SafetyCertificateOutlined, WarningOutlined } from '@ant-design/icons';
import { formatMoney } from '@gpu/shared/money';
import type { BalanceWarning } from '@gpu/shared/operations';
import { BALANCE_WARNING_HOURS_DEFAULT } from '@gpu/shared/operations';
import { formatTime } from '@gpu/shared/time';
import { Alert, Button, Card, Grid, InputNumber, Table, type TableProps } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { PageHeader } from '../../../components/PageHeader';
import { useAdminCan } from '../../../lib/admin-access';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { useBalanceCheck, useBalanceHealth, useBalanceStats, useBalanceWarnings } from '../api/balance';
import { AdjustBalanceModal } from '../components/AdjustBalanceModal';
import { LoadError } from '../components/LoadError';
import styles from '../components/ops.module.css';
import { RefreshButton } from '../components/RefreshButton';
import { StatCards } from '../components/StatCards';
import { opsPaging } from '../components/use-ops-list';

const i18n = ta.adminOps;
const b = i18n.balance;
const money = (v: number) => (
  <span className={`${styles.money} ${v < 0 ? styles.negative : ''}`}>{formatMoney(v)}</span>
);

/** Σ balances against Σ ledger, mismatching accounts listed, and the audited manual check. */
function HealthCard() {
  const health = useBalanceHealth();
  const check = useBalanceCheck();
  const h = health.data;
  const canWrite = useAdminCan('finance:write');
  const run = () =>
    check.mutate(undefined, {
      onSuccess: () => void notify('success', b.checkDone),
      onError: (err) => void notify('error', err instanceof ApiError ? err.message : i18n.actionFailed),
    });
  return (
    <Card
      title={b.health}
      loading={health.isPending}
      extra={
        canWrite ? (
          <Button
            icon={<SafetyCertificateOutlined />}
            onClick={run}
            loading={check.isPending}
            data-testid="balance-check"
          >
            {b.check}
          </Button>
        ) : null
      }
    >
      {health.isError && !h ? <LoadError onRetry={() => void health.refetch()} /> : null}
      {h ? (
        <>
          <Alert
            type={h.healthy ? 'success' : 'error'}
            showIcon
            icon={h.healthy ? <CheckCircleOutlined /> : <WarningOutlined />}
            title={h.healthy ? b.healthy : b.unhealthy(h.mismatches.length)}
            description={
              <>
                <div>{b.ledgerTotals(formatMoney(h.totalAvailable), formatMoney(h.ledgerAvailable))}</div>
                <div>{b.checkedAt(formatTime(h.checkedAt))}</div>
              </>
            }
            data-testid="balance-health"
          />
          {h.mismatches.length > 0 ? (
            <Table
              rowKey="userId"
              size="small"
              pagination={false}
              scroll={{ x: 640 }}
              style={{ marginTop: 12 }}
              dataSource={h.mismatches}
              columns={[
                {
                  title: b.mismatchUser,
                  dataIndex: 'phone',
                  render: (v: string | null, r) => v ?? `#${r.userId}`,
                },
                { title: b.available, dataIndex: 'available', align: 'right', render: money },
                { title: b.ledgerAvailable, dataIndex: 'ledgerAvailable', align: 'right', render: money },
                { title: b.frozen, dataIndex: 'frozen', align: 'right', render: money },
                { title: b.ledgerFrozen, dataIndex: 'ledgerFrozen', align: 'right', render: money },
              ]}
            />
          ) : null}
        </>
      ) : null}
    </Card>
  );
}

/** /admin/balance-monitoring: who runs out of money soon, ledger health, balance adjustment. */
export default function BalanceMonitoringPage() {
  const [hours, setHours] = useState(BALANCE_WARNING_HOURS_DEFAULT);
  const [page, setPage] = useState({ page: 1, size: 20 });
  const [adjusting, setAdjusting] = useState<{ id: number; phone: string } | null>(null);
  const warnings = useBalanceWarnings({ hours, ...page });
  const stats = useBalanceStats();
  const mobile = Grid.useBreakpoint().md === false;
  const s = stats.data;

  const canAdjust = useAdminCan('finance:write');
  const columns: NonNullable<TableProps<BalanceWarning>['columns']> = [
    {
      title: b.mismatchUser,
      dataIndex: 'phone',
      fixed: 'left',
      width: 140,
      render: (_: string, r) => (
        <>
          {r.phone}
          <span className={styles.sub}>{r.tenantName}</span>
        </>
      ),
    },
    { title: b.available, dataIndex: 'available', width: 120, align: 'right', render: money },
    { title: b.pending, dataIndex: 'pending', width: 120, align: 'right', render: money },
    { title: b.hourlyCost, dataIndex: 'hourlyCost', width: 120, align: 'right', render: money },
    { title: b.running, dataIndex: 'runningInstances', width: 90, align: 'right' },
    {
      title: b.hoursLeft,
      dataIndex: 'hoursLeft',
      width: 110,
      render: (v: number) => <span className={v <= 0 ? styles.negative : undefined}>{b.hoursValue(v)}</span>,
    },
  ];
  if (canAdjust)
    columns.push({
      title: i18n.actions,
      key: 'actions',
      fixed: 'right',
      width: 100,
      render: (_: unknown, r) => (
        <Button
          size="small"
          onClick={() => setAdjusting({ id: r.userId, phone: r.phone })}
          data-testid="warning-adjust"
        >
          {b.adjust}
        </Button>
      ),
    });

  return (
    <div className={styles.page}>
      <PageHeader
        title={b.title}
        subtitle={b.subtitle}
        extra={
          <RefreshButton
            query={warnings}
            onClick={() => {
              void warnings.refetch();
              void stats.refetch();
            }}
          />
        }
      />
      <StatCards
        loading={stats.isPending}
        computedAt={stats.data?.computedAt}
        items={[
          { key: 'accounts', label: b.accounts, value: s?.accounts },
          {
            key: 'available',
            label: b.totalAvailable,
            value: s?.totalAvailable,
            money: true,
          },
          {
            key: 'warning',
            label: b.warningUsers,
            value: s?.warningUsers,
            danger: (s?.warningUsers ?? 0) > 0,
          },
          { key: 'arrears', label: b.arrears, value: s?.arrearsUsers, danger: (s?.arrearsUsers ?? 0) > 0 },
          { key: 'burn', label: b.hourlyBurn, value: s?.hourlyBurn, money: true },
          {
            key: 'recharge',
            label: b.rechargeToday,
            value: s?.rechargeToday,
            money: true,
          },
        ]}
      />
      <HealthCard />
      <Card
        title={b.warnings}
        extra={
          <span className={styles.filters} style={{ margin: 0 }}>
            <InputNumber
              min={1}
              max={720}
              precision={0}
              value={hours}
              onChange={(v) => {
                if (v) {
                  setHours(v);
                  setPage({ ...page, page: 1 });
                }
              }}
              prefix={b.hours}
              suffix={b.hoursSuffix}
              style={{ width: mobile ? 170 : 200 }}
              data-testid="warning-hours"
            />
          </span>
        }
      >
        {warnings.isError && !warnings.data ? (
          <LoadError onRetry={() => void warnings.refetch()} />
        ) : (
          <Table<BalanceWarning>
            rowKey="userId"
            size="middle"
            columns={columns}
            dataSource={warnings.data?.list ?? []}
            loading={warnings.isFetching}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: b.noWarnings }}
            onRow={(r) => ({ 'data-testid': `warning-${r.userId}` }) as HTMLAttributes<HTMLElement>}
            pagination={opsPaging(page, warnings.data, setPage, mobile, { hideOnSinglePage: true })}
          />
        )}
      </Card>
      <AdjustBalanceModal user={adjusting} onClose={() => setAdjusting(null)} />
    </div>
  );
}
