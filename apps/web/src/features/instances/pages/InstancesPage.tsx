import { PlusOutlined, ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import { INSTANCE_STATUSES, type InstanceStatus } from '@gpu/shared/labels';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Grid, Pagination, Result, Select, Switch, Tag } from 'antd';
import { type ReactNode, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { useAppEvents } from '../../../lib/app-events';
import { PATHS } from '../../../lib/routing/paths';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { SpendRunway } from '../../billing';
import { useGpuSparklines } from '../../monitoring';
import { AdminActionNotices } from '../../notifications';
import { instanceKeys } from '../api/keys';
import { useInstances } from '../api/list-instances';
import { INSTANCE_EVENTS } from '../app-events';
import { FirstConnectHint } from '../components/FirstConnectHint';
import { InstanceCard } from '../components/InstanceCard';
import { InstanceNotices } from '../components/InstanceNotices';
import { InstanceTable } from '../components/InstanceTable';
import { useActionFlow } from '../components/use-action-flow';
import { isTransitional } from '../instance-status';
import { useNow } from '../use-now';
import { useSettleRefresh } from '../use-settle-refresh';
import styles from './InstancesPage.module.css';

const i18n = t.instances;
const PAGE_SIZE = 10;

const isStatus = (v: string | null): v is InstanceStatus =>
  v !== null && (INSTANCE_STATUSES as readonly string[]).includes(v);

/** /console/instance: the user's instances, live, with access details and actions. */
export default function InstancesPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const statusParam = params.get('status');
  const status = isStatus(statusParam) ? statusParam : undefined;
  // Released instances are records: hidden unless asked for (?released=1), except those
  // released while this page is open, so a release ends on 已释放 in view.
  const showReleased = params.get('released') === '1';
  const [openedAt] = useState(() => new Date().toISOString());
  const query = useInstances({
    page,
    size: PAGE_SIZE,
    status,
    ...(showReleased ? {} : { hideReleased: '1' as const, releasedSince: openedAt }),
  });
  const session = useSession();
  const queryClient = useQueryClient();
  const now = useNow(30_000);
  const screens = Grid.useBreakpoint();
  const mobile = screens.md === false;
  const flow = useActionFlow();

  // Created elsewhere (subscribe), stopped by another tab...: refresh at once.
  useAppEvents(INSTANCE_EVENTS, () => void queryClient.invalidateQueries({ queryKey: instanceKeys.all }));

  const setQuery = (next: { page?: number; status?: InstanceStatus | null; released?: boolean }) => {
    const p = new URLSearchParams(params);
    if (next.released !== undefined) {
      if (next.released) p.set('released', '1');
      else p.delete('released');
      p.delete('page');
    }
    if (next.status !== undefined) {
      if (next.status) p.set('status', next.status);
      else p.delete('status');
      p.delete('page');
    }
    if (next.page !== undefined) {
      if (next.page > 1) p.set('page', String(next.page));
      else p.delete('page');
    }
    setParams(p, { replace: true });
  };

  const data = query.data;
  const instances = data?.list ?? [];
  const live = instances.some((i) => isTransitional(i.status));
  const sparklines = useGpuSparklines(instances.some((i) => i.status === 'RUNNING'));
  useSettleRefresh(instances);

  const header = (
    <PageHeader
      title={i18n.title}
      subtitle={
        <>
          {i18n.subtitle}
          <SpendRunway />
        </>
      }
      extra={
        <>
          <span className={styles.toggle}>
            <Switch
              id="show-released"
              size="small"
              checked={showReleased}
              onChange={(on) => setQuery({ released: on })}
              data-testid="show-released"
            />
            <label htmlFor="show-released">{i18n.showReleased}</label>
          </span>
          <Select<InstanceStatus | ''>
            className={styles.filter}
            value={status ?? ''}
            aria-label={i18n.statusFilter}
            onChange={(v) => setQuery({ status: v || null })}
            options={[
              { value: '', label: i18n.allStatuses },
              ...INSTANCE_STATUSES.map((s) => ({ value: s, label: i18n.status[s] })),
            ]}
          />
          <Button
            icon={<ReloadOutlined spin={query.isFetching && !query.isLoading} />}
            onClick={() => void query.refetch()}
            aria-label={i18n.refresh}
          >
            {mobile ? null : i18n.refresh}
          </Button>
          <LinkButton to={PATHS.market} type="primary" icon={<PlusOutlined />}>
            {i18n.create}
          </LinkButton>
        </>
      }
    />
  );

  let body: ReactNode;
  if (query.isError && !data) {
    body = (
      <Card>
        <Result
          status="warning"
          title={i18n.loadFailed}
          subTitle={query.error.message}
          extra={<Button onClick={() => void query.refetch()}>{i18n.retry}</Button>}
        />
      </Card>
    );
  } else if (data && data.total === 0 && !status) {
    body = (
      <Card>
        <Empty
          className={styles.empty}
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <div>
              <div className={styles.emptyTitle}>{i18n.empty}</div>
              <div className={styles.emptyHint}>{i18n.emptyHint}</div>
            </div>
          }
        >
          <LinkButton to={PATHS.market} type="primary" data-testid="empty-to-market">
            {i18n.toMarket}
          </LinkButton>
        </Empty>
      </Card>
    );
  } else if (mobile) {
    body = (
      <div className={styles.cards}>
        {query.isLoading ? <Card loading /> : null}
        {data && instances.length === 0 ? <Empty description={i18n.empty} /> : null}
        {instances.map((inst) => (
          <InstanceCard
            key={inst.id}
            inst={inst}
            now={now}
            busy={flow.busy(inst.id)}
            onAction={flow.onAction}
            sparklines={sparklines}
          />
        ))}
        {data && data.total > PAGE_SIZE ? (
          <Pagination
            className={styles.pager}
            simple
            current={page}
            pageSize={PAGE_SIZE}
            total={data.total}
            onChange={(p) => setQuery({ page: p })}
          />
        ) : null}
      </div>
    );
  } else {
    body = (
      <Card className={styles.tableCard}>
        <InstanceTable
          instances={instances}
          now={now}
          busy={flow.busy}
          onAction={flow.onAction}
          sparklines={sparklines}
          loading={query.isLoading}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: data?.total ?? 0,
            showTotal: (n) => i18n.total(n),
            onChange: (p) => setQuery({ page: p }),
            hideOnSinglePage: true,
          }}
        />
      </Card>
    );
  }

  return (
    <div className={styles.page}>
      {header}
      {/* An administrator's action on an instance (its own small chunk). */}
      <Suspense fallback={null}>
        <AdminActionNotices />
      </Suspense>
      <FirstConnectHint
        instances={instances}
        userKey={String(session.user?.id ?? session.user?.phone ?? '')}
      />
      {live ? (
        <Tag icon={<SyncOutlined spin />} color="processing" className={styles.live}>
          {i18n.live}
        </Tag>
      ) : null}
      {/* On phones each card carries its own notice. */}
      {mobile ? null : <InstanceNotices instances={instances} now={now} />}
      {body}
      {flow.dialogs}
    </div>
  );
}
