import { DesktopOutlined } from '@ant-design/icons';
import { adminChangePasswordRequestSchema } from '@gpu/shared/admins';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Card } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { ChangePasswordCard } from '../../../components/security/ChangePasswordCard';
import layout from '../../../components/security/SecurityCards.module.css';
import { adminLanding, mustActFirst } from '../../../lib/admin-access';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { clearAdminSession, getSession, setAdminSession } from '../../../lib/session';
import { useSession } from '../../../lib/use-session';
import { ta } from '../../../locales/zh-CN.admin';
import { adminKeys } from '../api/keys';
import { changeOwnPassword, endMySession, useMySessions } from '../api/own-account';
import styles from '../components/AdminSecurity.module.css';
import { RecoveryCodesModal } from '../components/RecoveryCodesModal';
import { SessionsTable } from '../components/SessionsTable';
import { TotpCard } from '../components/TotpCard';

const s = ta.adminSecurity;

function PasswordCard() {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: changeOwnPassword,
    onSuccess: (admin) => {
      void notify('success', s.passwordChanged);
      const { adminToken } = getSession();
      if (adminToken) setAdminSession(adminToken, admin);
      void client.invalidateQueries({ queryKey: adminKeys.me() });
    },
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: s.passwordFailed, retry: s.passwordFailed })),
  });
  return (
    <ChangePasswordCard
      texts={s}
      current={{ name: 'currentPassword', label: s.currentPassword, testId: 'current-password' }}
      schema={adminChangePasswordRequestSchema}
      pending={mutation.isPending}
      onSubmit={(currentPassword, newPassword) =>
        mutation.mutateAsync({ currentPassword, newPassword }).then(
          () => true,
          () => false,
        )
      }
      testId="admin-password-form"
    />
  );
}

function SessionsCard() {
  const sessions = useMySessions();
  const client = useQueryClient();
  const end = useMutation({
    mutationFn: (session: { id: string; current: boolean }) => endMySession(session.id),
    onSuccess: (_answer, session) => {
      void notify('success', s.ended);
      // Ending this very session is signing out.
      if (session.current) clearAdminSession();
      else void client.invalidateQueries({ queryKey: adminKeys.mySessions() });
    },
    onError: (err) => void notify('error', failureMessage(err, { failed: s.endFailed, retry: s.endFailed })),
  });
  return (
    <Card
      title={
        <>
          <DesktopOutlined /> {s.sessionsTitle}
        </>
      }
      className={layout.card}
    >
      <p className={styles.hint}>{s.sessionsHint}</p>
      <SessionsTable
        sessions={sessions.data}
        loading={sessions.isPending}
        failed={sessions.isError}
        onEnd={(row) => end.mutate(row)}
        ending={end.isPending ? end.variables?.id : null}
      />
    </Card>
  );
}

/**
 * /admin/security (账号安全, every administrator): password, 2FA and sessions. While a step is
 * forced (a password set by the super administrator, or 2FA the role requires) every other page
 * sends the administrator here; once done the back office opens.
 */
export default function AdminSecurityPage() {
  const { admin } = useSession();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [codes, setCodes] = useState<string[] | null>(null);
  const forced = mustActFirst(admin);
  const wasForced = useRef(forced);

  useEffect(() => {
    if (forced) wasForced.current = true;
    // Done with the forced steps (and the recovery codes put away): the back office opens.
    else if (wasForced.current && codes === null) {
      wasForced.current = false;
      navigate(adminLanding(admin), { replace: true });
    }
  }, [forced, codes, admin, navigate]);

  if (!admin) return null;
  const reload = () => void client.invalidateQueries({ queryKey: adminKeys.me() });
  return (
    <div className={layout.page}>
      <PageHeader title={s.title} subtitle={s.subtitle} />
      {admin.mustChangePassword ? (
        <Alert
          type="warning"
          showIcon
          title={s.mustChangePassword}
          description={s.mustChangePasswordHint}
          data-testid="forced-step"
        />
      ) : admin.mustEnrolTotp ? (
        <Alert
          type="warning"
          showIcon
          title={s.mustEnrolTotp}
          description={s.mustEnrolTotpHint}
          data-testid="forced-step"
        />
      ) : null}
      <div className={layout.grid}>
        <PasswordCard />
        <TotpCard
          admin={admin}
          onCodes={(c) => {
            setCodes(c);
            reload();
          }}
          onChanged={reload}
        />
      </div>
      <SessionsCard />
      <RecoveryCodesModal codes={codes} onClose={() => setCodes(null)} />
    </div>
  );
}
