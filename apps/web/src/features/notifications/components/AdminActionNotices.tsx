import { formatTime } from '@gpu/shared/time';
import { Alert, Button } from 'antd';
import { tmsg } from '../../../locales/zh-CN.messages';
import { useMarkRead, useNotifications } from '../api/notifications';
import styles from './AdminActionNotices.module.css';

const n = tmsg;
/** Enough unread messages to find the administrator's among them (they are rare). */
const UNREAD_FILTERS = { page: 1, size: 50, unread: true };

/**
 * The instance page's banner: an administrator powered off, started or released one of the
 * user's instances (unread admin_action messages). 知道了 marks it read in the message centre too.
 */
export default function AdminActionNotices() {
  const { data } = useNotifications(UNREAD_FILTERS);
  const markRead = useMarkRead();
  const notices = (data?.list ?? []).filter((m) => m.event === 'admin_action' && !m.read);
  if (notices.length === 0) return null;
  return (
    <div className={styles.list} data-testid="user-notices">
      {notices.map((m) => (
        <Alert
          key={m.id}
          type="warning"
          showIcon
          title={m.title}
          description={
            <>
              <span>{m.body}</span>
              <span className={styles.time}>{formatTime(m.createdAt, 'YYYY-MM-DD HH:mm')}</span>
            </>
          }
          action={
            <Button size="small" onClick={() => markRead.mutate([m.id])} loading={markRead.isPending}>
              {n.acknowledge}
            </Button>
          }
          data-testid="user-notice"
        />
      ))}
      {notices.length > 1 ? (
        <Button
          type="link"
          size="small"
          onClick={() => markRead.mutate(notices.map((m) => m.id))}
          className={styles.all}
        >
          {n.acknowledgeAll}
        </Button>
      ) : null}
    </div>
  );
}
