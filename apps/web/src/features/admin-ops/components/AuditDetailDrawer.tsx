import type { AuditLogEntry } from '@gpu/shared/audit';
import { formatTime } from '@gpu/shared/time';
import { Descriptions, Drawer, Grid, Table } from 'antd';
import { ta } from '../../../locales/zh-CN.admin';
import { AuditValue, isObj } from './AuditValue';
import { actionName, fieldName, targetName } from './audit-labels';

const a = ta.adminOps.audit;

type Obj = Record<string, unknown>;

interface Change {
  field: string;
  key: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

/** `before` and `after` field by field, each under its Chinese name, changed fields marked. */
function changesOf(before: unknown, after: unknown): Change[] {
  if (!isObj(before ?? {}) || !isObj(after ?? {}))
    return [{ field: '', key: a.detail, before, after, changed: true }];
  const b = (before ?? {}) as Obj;
  const f = (after ?? {}) as Obj;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(f)])];
  return keys.map((k) => ({
    field: k,
    key: fieldName(k),
    before: b[k],
    after: f[k],
    changed: JSON.stringify(b[k]) !== JSON.stringify(f[k]),
  }));
}

/** One audit row: who, when, what; its detail field by field under Chinese names. */
export function AuditDetailDrawer({ entry, onClose }: { entry: AuditLogEntry | null; onClose: () => void }) {
  const mobile = Grid.useBreakpoint().md === false;
  const detail = entry?.detail ?? null;
  const hasDiff = isObj(detail) && ('before' in detail || 'after' in detail);
  const rest: Obj | null = isObj(detail)
    ? Object.fromEntries(
        Object.entries(detail).filter(([k]) => !hasDiff || (k !== 'before' && k !== 'after')),
      )
    : null;
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
        // On a phone each label sits above its value: beside it, it was one character wide.
        <Descriptions column={1} bordered size="small" layout={mobile ? 'vertical' : 'horizontal'}>
          <Descriptions.Item label={a.time}>{formatTime(entry.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={a.admin}>
            {entry.adminName ?? '-'}
            {entry.adminId ? ` (#${entry.adminId})` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={a.action}>
            <span data-testid="audit-detail-action">{actionName(entry.action)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={a.target}>
            <span data-testid="audit-detail-target">{targetName(entry.target, entry.action)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={a.ip}>{entry.ip ?? '-'}</Descriptions.Item>
          {hasDiff ? (
            <Descriptions.Item label={a.fieldsTitle}>
              <Table<Change>
                rowKey="key"
                size="small"
                pagination={false}
                scroll={{ x: 'max-content' }}
                data-testid="audit-changes"
                dataSource={changesOf(detail.before, detail.after)}
                onRow={(r) => ({ 'data-changed': String(r.changed) }) as object}
                columns={[
                  {
                    title: a.field,
                    dataIndex: 'key',
                    render: (k: string, r) => <span style={{ fontWeight: r.changed ? 600 : 400 }}>{k}</span>,
                  },
                  {
                    title: a.before,
                    dataIndex: 'before',
                    render: (v: unknown, r) => <AuditValue v={v} field={r.field} depth={1} />,
                  },
                  {
                    title: a.after,
                    dataIndex: 'after',
                    render: (v: unknown, r) => <AuditValue v={v} field={r.field} depth={1} />,
                  },
                ]}
              />
            </Descriptions.Item>
          ) : null}
          {rest && Object.keys(rest).length > 0 ? (
            <Descriptions.Item label={a.detail}>
              <div data-testid="audit-detail-json">
                <Descriptions column={1} size="small" bordered layout={mobile ? 'vertical' : 'horizontal'}>
                  {Object.entries(rest).map(([k, v]) => (
                    <Descriptions.Item key={k} label={fieldName(k)}>
                      <AuditValue v={v} field={k} depth={1} />
                    </Descriptions.Item>
                  ))}
                </Descriptions>
              </div>
            </Descriptions.Item>
          ) : detail !== null && !isObj(detail) ? (
            <Descriptions.Item label={a.detail}>
              <div data-testid="audit-detail-json">
                <AuditValue v={detail} />
              </div>
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      ) : null}
    </Drawer>
  );
}
