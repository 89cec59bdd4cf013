import { EyeInvisibleOutlined, EyeOutlined, LinkOutlined } from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Button, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { t } from '../../../locales/zh-CN';
import styles from './AccessInfo.module.css';

const i18n = t.instances;
const MASK = '••••••••••';

/** SSH command with copy, the root password hidden until revealed, and the JupyterLab link. */
export function AccessInfo({ inst }: { inst: Instance }) {
  const [shown, setShown] = useState(false);
  // A released (or releasing, or failed) instance has no container left to reach.
  const gone = inst.status === 'RELEASED' || inst.status === 'RELEASING' || inst.status === 'FAILED';
  if (gone) return <span className={styles.muted}>-</span>;
  if (!inst.sshCommand && !inst.sshPassword && !inst.jupyterUrl) {
    return <span className={styles.muted}>{i18n.noAccess}</span>;
  }
  return (
    <div className={styles.access}>
      {inst.sshCommand ? (
        <div className={styles.line}>
          <span className={styles.label}>{i18n.ssh}</span>
          <Typography.Text
            code
            className={styles.value}
            data-testid="ssh-command"
            copyable={{ text: inst.sshCommand, tooltips: [i18n.copySsh, i18n.copied] }}
          >
            {inst.sshCommand}
          </Typography.Text>
        </div>
      ) : null}
      {inst.sshPassword ? (
        <div className={styles.line}>
          <span className={styles.label}>{i18n.password}</span>
          <Typography.Text
            code
            className={styles.value}
            data-testid="ssh-password"
            data-shown={shown}
            copyable={{ text: inst.sshPassword, tooltips: [i18n.copyPassword, i18n.copied] }}
          >
            {shown ? inst.sshPassword : MASK}
          </Typography.Text>
          <Tooltip title={shown ? i18n.hidePassword : i18n.showPassword}>
            <Button
              type="text"
              size="small"
              className={styles.eye}
              aria-label={shown ? i18n.hidePassword : i18n.showPassword}
              aria-pressed={shown}
              icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
              onClick={() => setShown((v) => !v)}
            />
          </Tooltip>
        </div>
      ) : null}
      {inst.jupyterUrl ? (
        <a
          className={styles.jupyter}
          href={inst.jupyterUrl}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="jupyter-link"
        >
          <LinkOutlined /> {i18n.openJupyter}
        </a>
      ) : null}
    </div>
  );
}
