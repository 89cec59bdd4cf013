import { ApiOutlined, EyeInvisibleOutlined, EyeOutlined, LinkOutlined } from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Button, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { t } from '../../../locales/zh-CN';
import { jupyterLink } from '../instance-status';
import styles from './AccessInfo.module.css';

const i18n = t.instances;
const MASK = '••••••••••';

/** The words of each kind of secret: its label and its eye's and copy button's names. */
const SECRET_TEXTS = {
  password: {
    label: i18n.password,
    show: i18n.showPassword,
    hide: i18n.hidePassword,
    copy: i18n.copyPassword,
  },
  token: { label: i18n.jupyterToken, show: i18n.showToken, hide: i18n.hideToken, copy: i18n.copyToken },
} as const;

/** A secret on one line: masked until its eye is clicked, copyable either way. */
export function SecretLine({
  kind,
  value,
  testId,
}: {
  kind: keyof typeof SECRET_TEXTS;
  value: string;
  testId: string;
}) {
  const props = { ...SECRET_TEXTS[kind], value, testId };
  const [shown, setShown] = useState(false);
  return (
    <div className={styles.line}>
      <span className={styles.label}>{props.label}</span>
      <Typography.Text
        code
        className={styles.value}
        data-testid={props.testId}
        data-shown={shown}
        copyable={{ text: props.value, tooltips: [props.copy, i18n.copied] }}
      >
        {shown ? props.value : MASK}
      </Typography.Text>
      <Tooltip title={shown ? props.hide : props.show}>
        <Button
          type="text"
          size="small"
          className={styles.eye}
          aria-label={shown ? props.hide : props.show}
          aria-pressed={shown}
          icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          onClick={() => setShown((v) => !v)}
        />
      </Tooltip>
    </div>
  );
}

/**
 * SSH command with copy, the root password and JupyterLab's own token hidden until revealed,
 * the JupyterLab link with its token (else JupyterLab opens on a token prompt), and 连接, which
 * opens the drawer with every way in.
 */
export function AccessInfo({ inst, onConnect }: { inst: Instance; onConnect?: (inst: Instance) => void }) {
  // A released (or releasing, or failed) instance has no container left to reach.
  const gone = inst.status === 'RELEASED' || inst.status === 'RELEASING' || inst.status === 'FAILED';
  if (gone) return <span className={styles.muted}>-</span>;
  if (!inst.sshCommand && !inst.sshPassword && !inst.jupyterUrl) {
    return <span className={styles.muted}>{i18n.noAccess}</span>;
  }
  const jupyter = jupyterLink(inst);
  return (
    <div className={styles.access}>
      {/* Powered off, the drawer still holds the SSH switch and the extra ports' editor. */}
      {onConnect && (inst.sshCommand || inst.status === 'STOPPED') ? (
        <Button
          size="small"
          type="primary"
          ghost
          icon={<ApiOutlined />}
          className={styles.connect}
          onClick={() => onConnect(inst)}
          data-testid="connect-open"
        >
          {i18n.connect}
        </Button>
      ) : null}
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
        <SecretLine kind="password" value={inst.sshPassword} testId="ssh-password" />
      ) : null}
      {inst.jupyterToken ? (
        <SecretLine kind="token" value={inst.jupyterToken} testId="jupyter-token" />
      ) : null}
      {jupyter ? (
        <a
          className={styles.jupyter}
          href={jupyter}
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
