import type { Instance } from '@gpu/shared/instances';
import { Switch } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { useSshKeys } from '../../account';
import { useSetInstanceSsh } from '../api/ssh-settings';
import styles from './ConnectDrawer.module.css';

const i18n = t.instances;

/**
 * The 连接 drawer's SSH sign-in ways: how many of the account's keys the instance gets (written
 * at every create and power on) and the per-instance password switch, which a running instance
 * takes at its next power on.
 */
export function SshAccessSection({ inst }: { inst: Instance }) {
  const keys = useSshKeys();
  const mutation = useSetInstanceSsh();
  const [passwordAuth, setPasswordAuth] = useState(inst.sshPasswordAuth);
  const live = inst.status === 'RUNNING' || inst.status === 'STARTING' || inst.status === 'CREATING';
  const count = keys.data?.length;
  return (
    <section className={styles.section} data-testid="connect-ssh-access">
      <h3 className={styles.title}>{i18n.sshAccessTitle}</h3>
      <p className={styles.hint} data-testid="connect-ssh-keys">
        {count === undefined
          ? i18n.sshKeysLoading
          : count === 0
            ? i18n.sshKeysNone
            : i18n.sshKeysCount(count)}{' '}
        <Link to={PATHS.console.accountSecurity}>{i18n.sshKeysManage}</Link>
      </p>
      <div className={styles.switchRow}>
        <Switch
          checked={passwordAuth}
          loading={mutation.isPending}
          onChange={(next) =>
            mutation.mutate(
              { uuid: inst.uuid, passwordAuth: next },
              { onSuccess: () => setPasswordAuth(next) },
            )
          }
          data-testid="connect-password-auth"
        />
        <span>{i18n.sshPasswordAuth}</span>
      </div>
      <p className={styles.hint}>
        {passwordAuth ? i18n.sshPasswordOnHint : i18n.sshPasswordOffHint}
        {live ? ` ${i18n.sshChangeNextStart}` : ''}
      </p>
    </section>
  );
}
