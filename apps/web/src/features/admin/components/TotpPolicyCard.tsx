import { ADMIN_ROLES, type AdminRole } from '@gpu/shared/admin-access';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Skeleton, Switch } from 'antd';
import layout from '../../../components/security/SecurityCards.module.css';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { ta } from '../../../locales/zh-CN.admin';
import { saveTotpPolicy, useTotpPolicy } from '../api/admins';
import { adminKeys } from '../api/keys';
import styles from './AdminSecurity.module.css';

const m = ta.adminStaff;

/** Which roles must use 2FA: a switch per role (super administrators' rule). */
export function TotpPolicyCard({ canWrite }: { canWrite: boolean }) {
  const policy = useTotpPolicy();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: saveTotpPolicy,
    onSuccess: (next) => {
      client.setQueryData(adminKeys.totpPolicy(), next);
      void client.invalidateQueries({ queryKey: adminKeys.admins() });
      void notify('success', m.policySaved);
    },
    onError: (err) => void notify('error', failureMessage(err, { failed: m.failed, retry: m.failed })),
  });
  const toggle = (role: AdminRole, on: boolean) => {
    if (policy.data) save.mutate({ ...policy.data, [role]: on });
  };
  return (
    <Card title={m.policyTitle} className={layout.card} data-testid="totp-policy">
      <p className={styles.hint}>{m.policyHint}</p>
      {policy.isError ? <Alert type="error" showIcon title={m.policyFailed} /> : null}
      {policy.isPending ? <Skeleton active paragraph={{ rows: 1 }} /> : null}
      {policy.data ? (
        <div className={styles.row}>
          {ADMIN_ROLES.map((role) => (
            <span key={role} className={styles.row} style={{ marginRight: 16 }}>
              <Switch
                checked={policy.data[role]}
                disabled={!canWrite}
                loading={save.isPending && save.variables?.[role] !== policy.data[role]}
                onChange={(on) => toggle(role, on)}
                aria-labelledby={`totp-policy-label-${role}`}
                data-testid={`totp-policy-${role}`}
              />
              <span id={`totp-policy-label-${role}`}>{ta.admin.roles[role]}</span>
            </span>
          ))}
        </div>
      ) : null}
    </Card>
  );
}
