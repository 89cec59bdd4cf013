import { EditOutlined, LinkOutlined } from '@ant-design/icons';
import type { Instance } from '@gpu/shared/instances';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { ExtraPortsField, parseExtraPorts } from '../../../components/ExtraPortsField';
import { t } from '../../../locales/zh-CN';
import { useSetInstancePorts } from '../api/instance-ports';
import styles from './ConnectDrawer.module.css';

const i18n = t.extraPorts;

/** "容器端口 6006 · TensorBoard": what the user opened, with the usual service's name. */
const portLabel = (port: number) =>
  i18n.known[port] ? `${i18n.containerPort(port)} · ${i18n.known[port]}` : i18n.containerPort(port);

/**
 * The 连接 drawer's 端口 section: each extra port as its link on the host's public address
 * (copyable; shown plain until the instance runs), and, while powered off, the editor.
 */
export function ExtraPortsSection({ inst }: { inst: Instance }) {
  const [editing, setEditing] = useState<string[] | null>(null);
  // The drawer shows the row as it was when opened: the saved list comes from the answer.
  const [ports, setPorts] = useState(inst.extraPorts);
  const mutation = useSetInstancePorts();
  const off = inst.status === 'STOPPED';
  const parsed = editing ? parseExtraPorts(editing) : null;
  const save = () => {
    if (!parsed || parsed.error) return;
    mutation.mutate(
      { uuid: inst.uuid, ports: parsed.ports },
      {
        onSuccess: (answer) => {
          setPorts(answer.data.extraPorts);
          setEditing(null);
        },
      },
    );
  };
  return (
    <section className={styles.section} data-testid="connect-extra-ports">
      <h3 className={styles.title}>{i18n.title}</h3>
      {ports.length === 0 ? (
        <p className={styles.hint}>{i18n.none}</p>
      ) : (
        <>
          <p className={styles.hint}>{ports.some((p) => p.url) ? i18n.openHint : i18n.offHint}</p>
          <ul className={styles.ports}>
            {ports.map((p) => (
              <li key={p.containerPort} data-testid={`extra-port-${p.containerPort}`}>
                <span className={styles.portName}>{portLabel(p.containerPort)}</span>
                {p.url ? (
                  <Typography.Text copyable={{ text: p.url, tooltips: [i18n.copy, t.instances.copied] }}>
                    <a href={p.url} target="_blank" rel="noopener noreferrer" data-testid="extra-port-link">
                      <LinkOutlined /> {p.url}
                    </a>
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">{`→ ${p.hostPort}`}</Typography.Text>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {off && editing === null ? (
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => setEditing(ports.map((p) => String(p.containerPort)))}
          data-testid="extra-ports-edit"
        >
          {i18n.edit}
        </Button>
      ) : null}
      {off && editing !== null ? (
        <div className={styles.portsEditor}>
          <ExtraPortsField
            value={editing}
            onChange={setEditing}
            error={parsed?.error ?? null}
            testId="extra-ports-editor"
          />
          <p
            className={parsed?.error ? styles.error : styles.hint}
            role={parsed?.error ? 'alert' : undefined}
          >
            {parsed?.error ?? i18n.editHint}
          </p>
          <Space>
            <Button
              type="primary"
              size="small"
              loading={mutation.isPending}
              disabled={Boolean(parsed?.error)}
              onClick={save}
              data-testid="extra-ports-save"
            >
              {i18n.save}
            </Button>
            <Button size="small" onClick={() => setEditing(null)}>
              {i18n.cancel}
            </Button>
          </Space>
        </div>
      ) : null}
    </section>
  );
}
