import type { AdminSession } from '@gpu/shared/admins';
import { formatTime } from '@gpu/shared/time';
import { Alert, Button, Empty, Grid, Popconfirm, Table, type TableProps, Tag } from 'antd';
import { Token } from '../../../components/Token';
import { ta } from '../../../locales/zh-CN.admin';
import { deviceLabel } from '../../account';
import styles from './AdminSecurity.module.css';

const s = ta.adminSecurity;

/**
 * An administrator's active sessions, each with 结束 (the current one marked; ending it signs
 * out). A table on wide screens, a list on phones.
 */
export function SessionsTable({
  sessions,
  loading,
  failed,
  onEnd,
  ending,
  canEnd = true,
  endLabel = s.end,
}: {
  sessions: AdminSession[] | undefined;
  loading: boolean;
  failed: boolean;
  onEnd: (session: AdminSession) => void;
  ending?: string | null;
  canEnd?: boolean;
  endLabel?: string;
}) {
  const mobile = Grid.useBreakpoint().md === false;
  const end = (row: AdminSession) =>
    canEnd ? (
      <Popconfirm
        title={row.current ? s.endCurrentConfirm : s.endConfirm}
        onConfirm={() => onEnd(row)}
        okText={endLabel}
        cancelText={s.cancel}
      >
        <Button size="small" danger loading={ending === row.id} data-testid={`end-session-${row.id}`}>
          {endLabel}
        </Button>
      </Popconfirm>
    ) : null;
  const device = (row: AdminSession) => <Token>{deviceLabel(row.device) ?? s.unknown}</Token>;

  if (failed) return <Alert type="error" showIcon title={s.sessionsFailed} />;
  if (mobile)
    return sessions && sessions.length === 0 ? (
      <Empty description={s.sessionsEmpty} />
    ) : (
      <ul className={styles.sessions} data-testid="sessions">
        {(sessions ?? []).map((row) => (
          <li key={row.id}>
            <div className={styles.sessionHead}>
              <span>{formatTime(row.lastSeenAt)}</span>
              {row.current ? <Tag color="blue">{s.current}</Tag> : null}
              {end(row)}
            </div>
            <div className={styles.sessionMeta}>
              {row.ip ?? s.unknown} · {deviceLabel(row.device) ?? s.unknown}
            </div>
          </li>
        ))}
      </ul>
    );

  const columns: TableProps<AdminSession>['columns'] = [
    { title: s.signedInAt, dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
    { title: s.lastSeen, dataIndex: 'lastSeenAt', width: 170, render: (v: string) => formatTime(v) },
    {
      title: s.ip,
      dataIndex: 'ip',
      width: 140,
      render: (v: string | null) => <Token mono>{v ?? s.unknown}</Token>,
    },
    { title: s.device, dataIndex: 'device', ellipsis: true, render: (_: unknown, row) => device(row) },
    {
      title: '',
      key: 'actions',
      width: 150,
      render: (_: unknown, row) => (
        <span className={styles.sessionActions}>
          {row.current ? <Tag color="blue">{s.current}</Tag> : null}
          {end(row)}
        </span>
      ),
    },
  ];
  return (
    <Table<AdminSession>
      rowKey="id"
      columns={columns}
      dataSource={sessions ?? []}
      loading={loading}
      pagination={false}
      size="middle"
      scroll={{ x: 640 }}
      locale={{ emptyText: s.sessionsEmpty }}
      data-testid="sessions"
    />
  );
}
