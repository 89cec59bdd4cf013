import type { Instance } from '@gpu/shared/instances';
import { Alert } from 'antd';
import { useState } from 'react';
import { t } from '../../../locales/zh-CN';
import styles from './FirstConnectHint.module.css';

const i18n = t.instances;
/** Per browser and user: once dismissed, the hint stays away. */
export const connectHintKey = (userKey: string) => `gpu.instances.connect-hint-dismissed:${userKey}`;

const readDismissed = (key: string) => {
  try {
    return window.localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
};

/**
 * Three steps to reach an instance, above the list once the user has one that can be reached,
 * until they dismiss it (remembered in localStorage).
 */
export function FirstConnectHint({ instances, userKey }: { instances: Instance[]; userKey: string }) {
  const key = connectHintKey(userKey);
  const [dismissed, setDismissed] = useState(() => readDismissed(key));
  if (dismissed || !instances.some((i) => i.sshCommand)) return null;
  return (
    <Alert
      type="info"
      showIcon
      className={styles.hint}
      data-testid="connect-hint"
      title={i18n.firstHintTitle}
      description={
        <ol className={styles.steps}>
          {i18n.firstHintSteps.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ol>
      }
      closable={{
        closeIcon: <span className={styles.close}>{i18n.firstHintDismiss}</span>,
        'aria-label': i18n.firstHintDismiss,
      }}
      onClose={() => {
        try {
          window.localStorage.setItem(key, '1');
        } catch {
          // Private mode without storage: hidden for this visit only.
        }
        setDismissed(true);
      }}
    />
  );
}
