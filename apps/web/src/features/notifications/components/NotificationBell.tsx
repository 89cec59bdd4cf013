import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/routing/paths';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { tmsg } from '../../../locales/zh-CN.messages';
import { useBellNotifications, useMarkRead } from '../api/notifications';
import styles from './NotificationBell.module.css';
import { NotificationItem } from './NotificationItem';

const n = tmsg;

/**
 * The top bar's bell (issue 31): the unread count, polled every minute and on focus, and a
 * popover of the latest messages with 全部已读 and the way to the message centre.
 */
export default function NotificationBell() {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const query = useBellNotifications(Boolean(user));
  const markRead = useMarkRead();
  const { refetch } = query;
  // React Query refetches when the tab becomes visible; coming back from another window (the
  // tab visible all along) is a focus event. An answer already on its way is reused.
  useEffect(() => {
    if (!user) return;
    const onFocus = () => void refetch({ cancelRefetch: false });
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [user, refetch]);
  // Keyboard: the panel is rendered at the end of the page, so focus moves into it on opening;
  // Escape (wherever focus went meanwhile, e.g. a button that got disabled) closes it and gives
  // the focus back to the bell.
  useEffect(() => {
    if (!open) return;
    const id = window.setTimeout(() => panelRef.current?.focus(), 50);
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      triggerRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      window.clearTimeout(id);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  if (!user) return null;
  const unread = query.data?.unread ?? 0;
  const list = query.data?.list ?? [];

  const panel = (
    <div
      ref={panelRef}
      tabIndex={-1}
      role="dialog"
      aria-label={n.latest}
      className={styles.panel}
      data-testid="bell-panel"
    >
      <div className={styles.head}>
        <strong>{n.latest}</strong>
        <Button
          type="link"
          size="small"
          disabled={unread === 0}
          loading={markRead.isPending}
          onClick={() => markRead.mutate(undefined)}
          data-testid="bell-mark-all"
        >
          {n.markAllRead}
        </Button>
      </div>
      {query.isError ? (
        <p className={styles.empty}>{n.loadFailed}</p>
      ) : list.length === 0 ? (
        <p className={styles.empty}>{query.isPending ? t.common.loading : n.empty}</p>
      ) : (
        <ul className={styles.list}>
          {list.map((item) => (
            <NotificationItem
              key={item.id}
              item={item}
              compact
              action={
                item.read ? null : (
                  <Button
                    type="link"
                    size="small"
                    onClick={() => markRead.mutate([item.id])}
                    data-testid={`bell-read-${item.id}`}
                  >
                    {n.markRead}
                  </Button>
                )
              }
            />
          ))}
        </ul>
      )}
      <Link
        to={PATHS.console.messages}
        className={styles.all}
        onClick={() => setOpen(false)}
        data-testid="bell-view-all"
      >
        {n.viewAll}
      </Link>
    </div>
  );

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void query.refetch();
      }}
      trigger="click"
      placement="bottomRight"
      // On a phone the panel is nearly as wide as the screen: shift it in rather than flip it.
      align={{ overflow: { shiftX: true, adjustY: true } }}
      content={panel}
      arrow={false}
      styles={{ container: { padding: 0 } }}
    >
      <button
        ref={triggerRef}
        type="button"
        className={styles.trigger}
        aria-label={unread > 0 ? n.bellUnread(unread) : n.bell}
        aria-expanded={open}
        aria-haspopup="dialog"
        data-testid="notification-bell"
      >
        <Badge count={unread} size="small" overflowCount={99} data-testid="bell-count">
          <BellOutlined className={styles.icon} />
        </Badge>
      </button>
    </Popover>
  );
}
