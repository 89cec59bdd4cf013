import type { AdminListItem } from '@gpu/shared/admins';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Drawer, Grid } from 'antd';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { endAdminSession, useAdminSessions } from '../api/admins';
import { adminKeys } from '../api/keys';
import { SessionsTable } from './SessionsTable';

const m = ta.adminStaff;

/** One administrator's active sessions, each with 结束会话. */
export function AdminSessionsDrawer({
  admin,
  canEnd,
  onClose,
}: {
  admin: AdminListItem | null;
  canEnd: boolean;
  onClose: () => void;
}) {
  const mobile = Grid.useBreakpoint().md === false;
  const sessions = useAdminSessions(admin?.id ?? null);
  const client = useQueryClient();
  const end = useMutation({
    mutationFn: endAdminSession,
    onSuccess: () => {
      void notify('success', m.sessionEnded);
      void client.invalidateQueries({ queryKey: adminKeys.admins() });
    },
    onError: (err) => void notify('error', failureMessage(err, { failed: m.failed, retry: m.failed })),
  });
  return (
    <Drawer
      open={admin !== null}
      onClose={onClose}
      title={admin ? m.sessionsTitle(admin.username) : ''}
      // 720 left the device column a few pixels wide ("n…") beside the two dates, address and 结束会话.
      size={mobile ? '100%' : 880}
      destroyOnHidden
      data-testid="admin-sessions"
    >
      {admin ? (
        <SessionsTable
          sessions={sessions.data}
          loading={sessions.isPending}
          failed={sessions.isError}
          canEnd={canEnd}
          endLabel={m.endSession}
          onEnd={(row) => end.mutate({ id: admin.id, sid: row.id })}
          ending={end.isPending ? end.variables?.sid : null}
        />
      ) : null}
    </Drawer>
  );
}
