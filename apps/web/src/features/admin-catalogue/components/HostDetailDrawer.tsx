import { Descriptions, Drawer, Empty, Spin, Tag } from 'antd';
import { ta } from '../../../locales/zh-CN.admin';
import { useHost } from '../api/hosts';
import styles from './admin.module.css';
import { useAdminLayout } from './responsive';

const h = ta.adminCatalogue.hosts;

/** One host: its GPU grid (which GPU runs which instance), ports used/free and SKUs. */
export function HostDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const host = useHost(id);
  const { drawerWidth } = useAdminLayout();
  const d = host.data;
  return (
    <Drawer open={id !== null} onClose={onClose} width={drawerWidth} title={d?.name ?? h.detail}>
      {!d ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={h.region}>{d.regionName}</Descriptions.Item>
            <Descriptions.Item label={h.driver}>{h.drivers[d.driver] ?? d.driver}</Descriptions.Item>
            <Descriptions.Item label={h.status}>{h.statuses[d.status] ?? d.status}</Descriptions.Item>
            <Descriptions.Item label={h.publicAddress}>{d.publicAddress || '-'}</Descriptions.Item>
            <Descriptions.Item label={h.probe}>
              {d.lastProbeOk === null ? (
                h.neverProbed
              ) : d.lastProbeOk ? (
                <Tag color="green">{h.reachable}</Tag>
              ) : (
                <Tag color="red">{d.lastProbeError ?? h.unreachable}</Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={h.ports}>
              {d.portAllocated} / {d.portTotal}（{d.portRangeStart}–{d.portRangeEnd}）
            </Descriptions.Item>
          </Descriptions>
          <h3>{h.gpuGrid}</h3>
          {d.gpus.length === 0 ? (
            <Empty />
          ) : (
            <div className={styles.gpuGrid} data-testid="gpu-grid">
              {d.gpus.map((g) => {
                // The server's one definition decides; the label says why a GPU is reserved.
                const cls =
                  g.state === 'occupied'
                    ? styles.gpuBusy
                    : g.state === 'reserved'
                      ? styles.gpuReserved
                      : styles.gpuIdle;
                const label =
                  g.state === 'idle'
                    ? h.gpuIdle
                    : g.state === 'occupied'
                      ? h.gpuBusy(g.instanceId ?? 0)
                      : g.instanceId
                        ? h.gpuStopped(g.instanceId)
                        : h.gpuReserved(g.reservedReason ?? h.hostNotActive);
                return (
                  <div key={g.index} className={`${styles.gpu} ${cls}`}>
                    <div className={styles.gpuIndex}>
                      GPU {g.index} · {g.memoryGb} GB
                    </div>
                    <div>{g.model}</div>
                    <div data-testid="gpu-state" data-state={g.state}>
                      {label}
                    </div>
                  </div>
                );
              })}
            </div>
          )}
        </>
      )}
    </Drawer>
  );
}
