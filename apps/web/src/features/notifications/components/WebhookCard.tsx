import { DeleteOutlined, SendOutlined } from '@ant-design/icons';
import type { Webhook } from '@gpu/shared/notifications';
import { formatTime } from '@gpu/shared/time';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Popconfirm, Switch, Table, type TableProps, Tag } from 'antd';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { tmsg } from '../../../locales/zh-CN.messages';
import { tn } from '../../../locales/zh-CN.notifications';
import { notificationKeys } from '../api/keys';
import { deleteWebhook, setWebhookEnabled, testWebhook, type WebhookDelivery } from '../api/webhooks';
import styles from './WebhooksPanel.module.css';

const w = tn.webhooks;
const STATUS_COLOR = { pending: 'processing', delivered: 'success', failed: 'error' } as const;

const COLUMNS: TableProps<WebhookDelivery>['columns'] = [
  { title: w.event, dataIndex: 'event', render: (v: WebhookDelivery['event']) => tmsg.events[v] },
  {
    title: w.status,
    dataIndex: 'status',
    render: (v: WebhookDelivery['status']) => <Tag color={STATUS_COLOR[v]}>{w.deliveryStatus[v]}</Tag>,
  },
  { title: w.httpCode, dataIndex: 'responseStatus', render: (v: number | null) => v ?? '-' },
  {
    title: w.excerpt,
    dataIndex: 'responseExcerpt',
    width: 220,
    ellipsis: true,
    render: (v: string) => (
      <code className={styles.excerpt} title={v}>
        {v || '-'}
      </code>
    ),
  },
  { title: w.attempts, dataIndex: 'attempts' },
  {
    title: w.lastAttempt,
    dataIndex: 'lastAttemptAt',
    render: (v: string | null) => formatTime(v, 'MM-DD HH:mm'),
  },
  {
    title: w.nextAttempt,
    dataIndex: 'nextAttemptAt',
    render: (v: string | null) => formatTime(v, 'MM-DD HH:mm'),
  },
];

/** One webhook: its address, masked secret and state, 测试, 删除 and its delivery log. */
export function WebhookCard({ hook }: { hook: Webhook }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.webhooks() });
  // A test is answered on the spot and not logged: nothing to refresh.
  const test = useMutation({ mutationFn: () => testWebhook(hook.id) });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setWebhookEnabled(hook.id, enabled),
    onSuccess: (saved) => {
      void notify('success', saved.enabled ? w.switchedOn : w.switchedOff);
      void refresh();
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: w.switchFailed, retry: w.switchFailed })),
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(hook.id),
    onSuccess: () => {
      void notify('success', w.deleted);
      void refresh();
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: w.deleteFailed, retry: w.deleteFailed })),
  });

  let result: React.ReactNode = null;
  if (test.isError)
    result = (
      <Alert
        type="error"
        showIcon
        title={failureMessage(test.error, { failed: w.testFailed, retry: w.testFailed })}
        data-testid="webhook-test-result"
      />
    );
  else if (test.data) {
    const ok = test.data.ok;
    result = (
      <Alert
        type={ok ? 'success' : 'error'}
        showIcon
        title={w.testResult(ok, test.data.responseStatus)}
        description={
          test.data.responseExcerpt ? (
            <code className={styles.excerpt}>{test.data.responseExcerpt}</code>
          ) : null
        }
        data-testid="webhook-test-result"
      />
    );
  }

  return (
    <section className={styles.hook} data-testid={`webhook-${hook.id}`} aria-label={hook.url}>
      <div className={styles.hookHead}>
        <div className={styles.hookInfo}>
          <code className={styles.url} data-testid="webhook-url">
            {hook.url}
          </code>
          <div className={styles.meta}>
            <Switch
              size="small"
              checked={hook.enabled}
              loading={toggle.isPending}
              onChange={(on) => toggle.mutate(on)}
              checkedChildren={w.enabled}
              unCheckedChildren={w.disabled}
              aria-label={w.switchLabel}
              data-testid="webhook-enabled"
            />
            <span>
              {w.secret} <code data-testid="webhook-secret-hint">{hook.secretHint}</code>
            </span>
            <span>
              {w.createdAt} {formatTime(hook.createdAt, 'YYYY-MM-DD HH:mm')}
            </span>
          </div>
        </div>
        <div className={styles.hookActions}>
          <Button
            icon={<SendOutlined />}
            loading={test.isPending}
            onClick={() => test.mutate()}
            data-testid="webhook-test"
          >
            {w.test}
          </Button>
          <Popconfirm
            title={w.deleteConfirm}
            description={w.deleteHint}
            onConfirm={() => remove.mutateAsync()}
            okText={w.delete}
            okButtonProps={{ danger: true, id: `webhook-delete-ok-${hook.id}` }}
            cancelText={w.cancel}
          >
            <Button danger icon={<DeleteOutlined />} loading={remove.isPending} data-testid="webhook-delete">
              {w.delete}
            </Button>
          </Popconfirm>
        </div>
      </div>
      {result}
      <h4 className={styles.logTitle}>{w.deliveries}</h4>
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        columns={COLUMNS}
        dataSource={hook.deliveries}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: w.noDeliveries }}
        onRow={() => ({ 'data-testid': 'webhook-delivery' }) as object}
      />
    </section>
  );
}
