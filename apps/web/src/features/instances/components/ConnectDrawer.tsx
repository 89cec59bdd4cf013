import { CodeOutlined, LinkOutlined } from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Drawer, Grid, Typography } from 'antd';
import type { ReactNode } from 'react';
import { t } from '../../../locales/zh-CN';
import { jupyterLink, sshTarget, TENSORBOARD_PORT, tunnelCommand } from '../instance-status';
import { SecretLine } from './AccessInfo';
import styles from './ConnectDrawer.module.css';
import { ExtraPortsSection } from './ExtraPortsSection';
import { SshAccessSection } from './SshAccessSection';

const i18n = t.instances;

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className={styles.section} data-testid={testId}>
      <h3 className={styles.title}>{title}</h3>
      {children}
    </section>
  );
}

/** A command on its own line (wrapping only between words), with its copy button. */
function Command({ text, copy, testId }: { text: string; copy: string; testId: string }) {
  return (
    <Typography.Paragraph
      code
      className={styles.command}
      data-testid={testId}
      copyable={{ text, tooltips: [copy, i18n.copied] }}
    >
      {text}
    </Typography.Paragraph>
  );
}

/**
 * Everything to reach one instance: SSH command and password, JupyterLab with its token,
 * the user's extra ports (links, and their editor while powered off), VS Code / PyCharm
 * Remote-SSH steps and a TensorBoard port forward.
 */
export function ConnectDrawer({ inst, onClose }: { inst: Instance | null; onClose: () => void }) {
  const screens = Grid.useBreakpoint();
  const mobile = screens.md === false;
  const ssh = inst?.sshCommand ?? null;
  const target = ssh ? sshTarget(ssh) : null;
  const jupyter = inst ? jupyterLink(inst) : null;
  return (
    <Drawer
      open={inst !== null}
      onClose={onClose}
      title={
        inst ? (
          <span className={styles.drawerTitle} title={inst.name}>
            {i18n.connectTitle(inst.name)}
          </span>
        ) : (
          ''
        )
      }
      size={mobile ? '100%' : 560}
      destroyOnHidden
      data-testid="connect-drawer"
    >
      {inst && !ssh && !jupyter ? <p className={styles.hint}>{i18n.connectUnavailable}</p> : null}
      {inst && ssh ? (
        <Section title={i18n.connectSsh} testId="connect-ssh">
          <p className={styles.hint}>{i18n.connectSshHint}</p>
          <Command text={ssh} copy={i18n.copySsh} testId="connect-ssh-command" />
          {inst.sshPassword ? (
            <SecretLine kind="password" value={inst.sshPassword} testId="connect-ssh-password" />
          ) : null}
        </Section>
      ) : null}
      {inst && inst.status !== 'RELEASED' && inst.status !== 'FAILED' ? (
        <SshAccessSection inst={inst} />
      ) : null}
      {inst && jupyter ? (
        <Section title={i18n.connectJupyter} testId="connect-jupyter">
          <p className={styles.hint}>{i18n.connectJupyterHint}</p>
          <a
            className={styles.link}
            href={jupyter}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="connect-jupyter-link"
          >
            <LinkOutlined /> {i18n.openJupyter}
          </a>
          {inst.jupyterToken ? (
            <SecretLine kind="token" value={inst.jupyterToken} testId="connect-jupyter-token" />
          ) : null}
        </Section>
      ) : null}
      {inst && inst.status !== 'RELEASED' && inst.status !== 'FAILED' ? (
        <ExtraPortsSection inst={inst} />
      ) : null}
      {inst && ssh ? (
        <Section title={i18n.connectIde} testId="connect-ide">
          <h4 className={styles.subtitle}>
            <CodeOutlined /> {i18n.vscodeLabel}
          </h4>
          <ol className={styles.steps}>
            {i18n.vscodeSteps.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
          <h4 className={styles.subtitle}>
            <CodeOutlined /> {i18n.pycharmLabel}
          </h4>
          <ol className={styles.steps}>
            {i18n.pycharmSteps(target?.host ?? '-', target?.port ?? '22').map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </Section>
      ) : null}
      {inst?.dataMountPath ? (
        <Section title={i18n.connectDataDisk} testId="connect-data-disk">
          <p className={styles.hint}>{i18n.connectDataDiskHint(inst.dataMountPath)}</p>
          <Command text={inst.dataMountPath} copy={i18n.copyDataPath} testId="connect-data-path" />
        </Section>
      ) : null}
      {inst && ssh ? (
        <Section title={i18n.connectTunnel} testId="connect-tunnel">
          <p className={styles.hint}>{i18n.connectTunnelHint(TENSORBOARD_PORT)}</p>
          <Command text={tunnelCommand(ssh)} copy={i18n.copyTunnel} testId="connect-tunnel-command" />
        </Section>
      ) : null}
    </Drawer>
  );
}
