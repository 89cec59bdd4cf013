import type { AuditLogEntry } from '@gpu/shared/audit';
import { formatTime } from '@gpu/shared/time';
import { Descriptions, Drawer, Grid } from 'antd';
import { t } from '../../../locales/zh-CN';
import styles from './ops.module.css';

const a = t.adminOps.audit;

export const actionName = (action: string) => a.actionNames[action] ?? action;

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** One audit row: who, when, what; `before` and `after` side by side when the detail has them. */
export function AuditDetailDrawer({ entry, onClose }: { entry: AuditLogEntry | null; onClose: () => void }) {
  const mobile = Grid.useBreakpoint().md === false;
  const detail = (entry?.detail ?? null) as Record<string, unknown> | null;
  const hasDiff = detail !== null && typeof detail === 'object' && ('before' in detail || 'after' in detail);
  const rest = hasDiff
    ? Object.fromEntries(Object.entries(detail).filter(([k]) => k !== 'before' && k !== 'after'))
    : detail;
  return (
    <Drawer
      open={entry !== null}
      onClose={onClose}
      title={a.detailTitle}
      size={mobile ? '100%' : 640}
      destroyOnHidden
      data-testid="audit-detail"
    >
      {entry ? (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={a.time}>{formatTime(entry.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={a.admin}>
            {entry.adminName ?? '-'}
            {entry.adminId ? ` (#${entry.adminId})` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={a.action}>
            {actionName(entry.action)}
            <span className={styles.sub}>{entry.action}</span>
          </Descriptions.Item>
          <Descriptions.Item label={a.target}>
            <span className={styles.mono}>{entry.target ?? '-'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={a.ip}>{entry.ip ?? '-'}</Descriptions.Item>
          {hasDiff ? (
            <>
              <Descriptions.Item label={a.before}>
                <pre className={styles.json} data-testid="audit-before">
                  {json(detail.before ?? null)}
                </pre>
              </Descriptions.Item>
              <Descriptions.Item label={a.after}>
                <pre className={styles.json} data-testid="audit-after">
                  {json(detail.after ?? null)}
                </pre>
              </Descriptions.Item>
            </>
          ) : null}
          {rest && Object.keys(rest).length > 0 ? (
            <Descriptions.Item label={a.detail}>
              <pre className={styles.json} data-testid="audit-detail-json">
                {json(rest)}
              </pre>
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      ) : null}
    </Drawer>
  );
}
