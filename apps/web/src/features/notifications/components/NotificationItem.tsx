import type { Notification } from '@gpu/shared/notifications';
import { formatTime } from '@gpu/shared/time';
import { type ReactNode, Suspense } from 'react';
import { tmsg } from '../../../locales/zh-CN.messages';
import { KeepRunningButton } from '../../guards';
import styles from './NotificationItem.module.css';

const n = tmsg;

/**
 * One message (bell and message centre): an unread dot, event, title, body and its time in
 * Asia/Shanghai; `action` on the right (标为已读). Plain markup: the bell's chunk stays small.
 */
export function NotificationItem({
  item,
  action,
  compact = false,
}: {
  item: Notification;
  action?: ReactNode;
  compact?: boolean;
}) {
  return (
    <li
      className={`${styles.item} ${item.read ? '' : styles.unread} ${compact ? styles.compact : ''}`}
      data-testid="notification-item"
      data-read={item.read}
    >
      <span className={styles.dot} aria-hidden="true" />
      {item.read ? null : <span className={styles.hidden}>{n.unread}</span>}
      <div className={styles.main}>
        <div className={styles.head}>
          <strong className={styles.title}>{item.title}</strong>
          <span className={styles.event}>{n.events[item.event]}</span>
        </div>
        <p className={styles.body}>{item.body}</p>
        {item.event === 'idle_shutdown_warning' && item.instanceId !== null ? (
          <Suspense fallback={null}>
            <KeepRunningButton instanceId={item.instanceId} />
          </Suspense>
        ) : null}
        <time className={styles.time} dateTime={item.createdAt}>
          {formatTime(item.createdAt, 'YYYY-MM-DD HH:mm')}
        </time>
      </div>
      {action ? <div className={styles.action}>{action}</div> : null}
    </li>
  );
}
