import type { Instance } from '@gpu/shared/instances';
import { formatTime } from '@gpu/shared/time';
import { Alert } from 'antd';
import { t } from '../../../locales/zh-CN';
import { type InstanceNotice, instanceNotice } from '../instance-status';
import styles from './InstanceNotices.module.css';

const i18n = t.instances;

export function noticeText(notice: InstanceNotice): string {
  if (notice.kind === 'server') return notice.text ?? '';
  const at = formatTime(notice.at, 'YYYY-MM-DD HH:mm');
  return notice.kind === 'expiring' ? i18n.expiringSoon(at) : i18n.releaseNotice(at);
}

/** Banners above the list: arrears, expiry, coming release (the most urgent first). */
export function InstanceNotices({ instances, now }: { instances: Instance[]; now: Date }) {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const notices = instances
    .map((inst) => ({ inst, notice: instanceNotice(inst, now) }))
    .filter((n): n is { inst: Instance; notice: InstanceNotice } => n.notice !== null)
    .sort((a, b) => rank[a.notice.level] - rank[b.notice.level]);
  if (notices.length === 0) return null;
  return (
    <div className={styles.list} data-testid="instance-notices">
      {notices.map(({ inst, notice }) => (
        <Alert
          key={inst.id}
          type={notice.level}
          showIcon
          title={i18n.noticeOf(inst.name, noticeText(notice))}
        />
      ))}
    </div>
  );
}
