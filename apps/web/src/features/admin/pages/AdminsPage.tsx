import type { AdminListItem } from '@gpu/shared/admins';
import { formatTime } from '@gpu/shared/time';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { ConfirmButton } from '../../../components/admin/ConfirmButton';
import { PageHeader } from '../../../components/PageHeader';
import layout from '../../../components/security/SecurityCards.module.css';
import { Token } from '../../../components/Token';
import { useAdminCan } from '../../../lib/admin-access';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { useSession } from '../../../lib/use-session';
import { ta } from '../../../locales/zh-CN.admin';
import { createAdmin, resetAdminPassword, resetAdminTotp, updateAdmin, useAdmins } from '../api/admins';
import { adminKeys } from '../api/keys';
import { AdminFormModal, type AdminFormValues } from '../components/AdminFormModal';
import { AdminSessionsDrawer } from '../components/AdminSessionsDrawer';
import { OneTimePasswordModal } from '../components/OneTimePasswordModal';
import { TotpPolicyCard } from '../components/TotpPolicyCard';

const m = ta.adminStaff;

/** Every write of this page: a toast, the list refetched; a failure shows the server's message. */
function useStaffAction<I, O>(fn: (input: I) => Promise<O>, onDone?: (answer: O, input: I) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (answer, input) => {
      void client.invalidateQueries({ queryKey: adminKeys.admins() });
      if (onDone) onDone(answer, input);
      else void notify('success', m.saved);
    },
    onError: (err) => void notify('error', failureMessage(err, { failed: m.failed, retry: m.failed })),
  });
}

/**
 * /admin/admins (管理员, super administrators): the administrators, their roles, tenants, 2FA,
 * last sign-in and sessions; create, edit, disable, reset password or 2FA; the 2FA policy.
 */
export default function AdminsPage() {
  const admins = useAdmins();
  const canWrite = useAdminCan('admins:write');
  const me = useSession().admin;
  const [editing, setEditing] = useState<AdminListItem | 'new' | null>(null);
  const [sessionsOf, setSessionsOf] = useState<AdminListItem | null>(null);
  const [password, setPassword] = useState<{ username: string; password: string; title: string } | null>(
    null,
  );

  const create = useStaffAction(createAdmin, ({ admin, password: p }) => {
    setEditing(null);
    setPassword({ username: admin.username, password: p, title: m.passwordTitle });
  });
  const update = useStaffAction(updateAdmin, () => {
    setEditing(null);
    void notify('success', m.saved);
  });
  const resetPassword = useStaffAction(
    (row: AdminListItem) => resetAdminPassword(row.id),
    ({ password: p }, row) =>
      setPassword({ username: row.username, password: p, title: m.resetPasswordTitle }),
  );
  const resetTotp = useStaffAction(
    (row: AdminListItem) => resetAdminTotp(row.id),
    () => void notify('success', m.totpReset),
  );

  const save = (values: AdminFormValues) => {
    if (editing === 'new') create.mutate(values);
    else if (editing) update.mutate({ id: editing.id, role: values.role, tenantId: values.tenantId });
  };

  const actions = (row: AdminListItem) => {
    const self = row.id === me?.id;
    return (
      <Space size={4} wrap>
        <Button
          type="link"
          size="small"
          onClick={() => setSessionsOf(row)}
          data-testid={`admin-sessions-${row.username}`}
        >
          {m.viewSessions}
        </Button>
        {canWrite && !self ? (
          <Button
            type="link"
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`admin-edit-${row.username}`}
          >
            {m.edit}
          </Button>
        ) : null}
        {canWrite && !self ? (
          <ConfirmButton
            link
            danger={row.status === 'ACTIVE'}
            title={row.status === 'ACTIVE' ? m.disableConfirm(row.username) : m.enableConfirm(row.username)}
            okText={row.status === 'ACTIVE' ? m.disable : m.enable}
            cancelText={m.cancel}
            onConfirm={() =>
              update.mutate({ id: row.id, status: row.status === 'ACTIVE' ? 'DISABLED' : 'ACTIVE' })
            }
          >
            {row.status === 'ACTIVE' ? m.disable : m.enable}
          </ConfirmButton>
        ) : null}
        {canWrite && !self ? (
          <ConfirmButton
            link
            title={m.resetPasswordConfirm(row.username)}
            okText={m.resetPassword}
            cancelText={m.cancel}
            onConfirm={() => resetPassword.mutate(row)}
          >
            {m.resetPassword}
          </ConfirmButton>
        ) : null}
        {canWrite && !self && row.totpEnabled ? (
          <ConfirmButton
            link
            title={m.resetTotpConfirm(row.username)}
            okText={m.resetTotp}
            cancelText={m.cancel}
            onConfirm={() => resetTotp.mutate(row)}
          >
            {m.resetTotp}
          </ConfirmButton>
        ) : null}
      </Space>
    );
  };

  const columns: TableProps<AdminListItem>['columns'] = [
    {
      title: m.username,
      dataIndex: 'username',
      fixed: 'left',
      width: 150,
      render: (v: string, row) => (
        <span data-testid={`admin-row-${v}`}>
          <Token>{v}</Token>
          {row.id === me?.id ? m.self : ''}
        </span>
      ),
    },
    {
      title: m.role,
      dataIndex: 'role',
      width: 110,
      render: (v: AdminListItem['role']) => <Tag>{ta.admin.roles[v]}</Tag>,
    },
    {
      title: m.tenant,
      dataIndex: 'tenantName',
      width: 140,
      render: (v: string | null) => (v ? <Token>{v}</Token> : m.tenantPlatform),
    },
    {
      title: m.status,
      dataIndex: 'status',
      width: 110,
      render: (v: AdminListItem['status'], row) => (
        <Space size={4} wrap>
          <Tag color={v === 'ACTIVE' ? 'green' : 'default'}>
            {v === 'ACTIVE' ? m.active : m.disabledStatus}
          </Tag>
          {row.mustChangePassword ? <Tag color="orange">{m.mustChange}</Tag> : null}
        </Space>
      ),
    },
    {
      title: m.totp,
      dataIndex: 'totpEnabled',
      width: 100,
      render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{v ? m.totpOn : m.totpOff}</Tag>,
    },
    {
      title: m.lastLogin,
      dataIndex: 'lastLoginAt',
      width: 190,
      render: (v: string | null, row) =>
        v ? (
          <span>
            {formatTime(v)}
            <br />
            <Token mono>{row.lastLoginIp ?? '-'}</Token>
          </span>
        ) : (
          m.never
        ),
    },
    { title: m.sessions, dataIndex: 'activeSessions', width: 90 },
    { title: m.actions, key: 'actions', width: 260, render: (_: unknown, row) => actions(row) },
  ];

  return (
    <div className={layout.page}>
      <PageHeader
        title={m.title}
        subtitle={m.subtitle}
        extra={
          canWrite ? (
            <Button type="primary" onClick={() => setEditing('new')} data-testid="admin-create">
              {m.create}
            </Button>
          ) : null
        }
      />
      {admins.isError ? (
        <Alert
          type="error"
          showIcon
          title={m.loadFailed}
          action={
            <Button size="small" onClick={() => void admins.refetch()}>
              {m.retry}
            </Button>
          }
        />
      ) : null}
      <Table<AdminListItem>
        rowKey="id"
        columns={columns}
        dataSource={admins.data ?? []}
        loading={admins.isLoading}
        scroll={{ x: 'max-content' }}
        pagination={false}
        locale={{ emptyText: m.empty }}
        data-testid="admins-table"
      />
      <TotpPolicyCard canWrite={canWrite} />
      <AdminFormModal
        editing={editing}
        saving={create.isPending || update.isPending}
        onClose={() => setEditing(null)}
        onSave={save}
      />
      <AdminSessionsDrawer admin={sessionsOf} canEnd={canWrite} onClose={() => setSessionsOf(null)} />
      <OneTimePasswordModal shown={password} onClose={() => setPassword(null)} />
    </div>
  );
}
