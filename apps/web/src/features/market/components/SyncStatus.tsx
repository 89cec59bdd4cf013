import { CheckCircleFilled, SyncOutlined } from '@ant-design/icons';
import { formatTime } from '@gpu/shared/time';
import { t } from '../../../locales/zh-CN';
import styles from './SyncStatus.module.css';

/** The background-sync indicator: "正在同步…" while a sync runs, else when stock was last synced. */
export function SyncStatus({
  syncing,
  lastSyncedAt,
}: {
  syncing: boolean;
  lastSyncedAt: string | null | undefined;
}) {
  if (syncing)
    return (
      <span className={styles.status} role="status" data-testid="market-syncing">
        <SyncOutlined spin className={styles.spin} />
        {t.market.syncing}
      </span>
    );
  if (!lastSyncedAt) return <span className={styles.status} role="status" />;
  return (
    <span className={styles.status} role="status" data-testid="market-synced">
      <CheckCircleFilled className={styles.ok} />
      {t.market.syncedAt(formatTime(lastSyncedAt, 'HH:mm:ss'))}
    </span>
  );
}
