import { Alert, Button, Card, Empty, Pagination, Skeleton, Tabs } from 'antd';
import { useState } from 'react';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { notify } from '../../../lib/feedback';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { tmsg } from '../../../locales/zh-CN.messages';
import { useMarkRead, useNotifications } from '../api/notifications';
import { NotificationItem } from '../components/NotificationItem';
import styles from './MessagesPage.module.css';

const n = tmsg;
const PAGE_SIZE = 10;
type Filter = 'all' | 'unread';

/** /console/messages, the message centre (issue 31): every notification, newest first. */
export default function MessagesPage() {
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const list = useNotifications({ page, size: PAGE_SIZE, ...(filter === 'unread' ? { unread: true } : {}) });
  const markRead = useMarkRead();
  const unread = list.data?.unread ?? 0;

  const mark = (ids?: number[]) =>
    markRead.mutate(ids, {
      onSuccess: () => {
        if (!ids) void notify('success', n.allRead);
      },
      onError: () => void notify('error', n.markFailed),
    });

  let body: React.ReactNode;
  if (list.isPending) body = <Skeleton active paragraph={{ rows: 6 }} data-testid="messages-loading" />;
  else if (list.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title={n.loadFailed}
        data-testid="messages-load-failed"
        action={
          <Button size="small" onClick={() => void list.refetch()}>
            {n.retry}
          </Button>
        }
      />
    );
  else if (list.data.list.length === 0)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={filter === 'all' ? n.empty : n.emptyUnread}
        data-testid="messages-empty"
      />
    );
  else
    body = (
      <>
        <ul className={styles.list} data-testid="messages-list">
          {list.data.list.map((item) => (
            <NotificationItem
              key={item.id}
              item={item}
              action={
                item.read ? null : (
                  <Button
                    size="small"
                    onClick={() => mark([item.id])}
                    data-testid={`message-read-${item.id}`}
                  >
                    {n.markRead}
                  </Button>
                )
              }
            />
          ))}
        </ul>
        <Pagination
          className={styles.pagination}
          align="end"
          current={page}
          pageSize={PAGE_SIZE}
          total={list.data.total}
          onChange={setPage}
          hideOnSinglePage
          showSizeChanger={false}
          showTotal={n.total}
          size="small"
        />
      </>
    );

  return (
    <>
      <PageHeader
        title={n.centreTitle}
        subtitle={n.centreSubtitle}
        extra={
          <LinkButton to={PATHS.console.notificationSettings} data-testid="messages-settings">
            {t.routes.consoleNotificationSettings}
          </LinkButton>
        }
      />
      <Card className={styles.card}>
        <Tabs
          activeKey={filter}
          onChange={(key) => {
            setFilter(key as Filter);
            setPage(1);
          }}
          items={[
            { key: 'all', label: n.filterAll },
            { key: 'unread', label: unread > 0 ? `${n.filterUnread}（${unread}）` : n.filterUnread },
          ]}
          tabBarExtraContent={
            <Button
              size="small"
              disabled={unread === 0}
              loading={markRead.isPending && markRead.variables === undefined}
              onClick={() => mark(undefined)}
              data-testid="messages-mark-all"
            >
              {n.markAllRead}
            </Button>
          }
        />
        {body}
      </Card>
    </>
  );
}
