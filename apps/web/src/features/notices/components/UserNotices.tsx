import { formatTime } from '@gpu/shared/time';
import { Alert, Button } from 'antd';
import { t } from '../../../locales/zh-CN';
import { useMarkNoticesRead, useUnreadNotices } from '../api/notices';
import styles from './UserNotices.module.css';

const i18n = t.notices;

/** The back office's unread notices (an admin powered off, started or terminated an instance). */
export function UserNotices() {
  const { data } = useUnreadNotices();
  const markRead = useMarkNoticesRead();
  if (!data?.length) return null;
  return (
    <div className={styles.list} data-testid="user-notices">
      {data.map((n) => (
        <Alert
          key={n.id}
          type="warning"
          showIcon
          title={n.title}
          description={
            <>
              <span>{n.body}</span>
              <span className={styles.time}>{formatTime(n.createdAt, 'YYYY-MM-DD HH:mm')}</span>
            </>
          }
          action={
            <Button size="small" onClick={() => markRead.mutate(n.id)} loading={markRead.isPending}>
              {i18n.acknowledge}
            </Button>
          }
          data-testid="user-notice"
        />
      ))}
      {data.length > 1 ? (
        <Button type="link" size="small" onClick={() => markRead.mutate(undefined)} className={styles.all}>
          {i18n.acknowledgeAll}
        </Button>
      ) : null}
    </div>
  );
}
