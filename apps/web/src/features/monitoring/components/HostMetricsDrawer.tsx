import type { MetricsRange } from '@gpu/shared/monitoring';
import { Drawer, Grid } from 'antd';
import { useState } from 'react';
import { tmon } from '../../../locales/zh-CN.monitoring';
import { useHostMetrics } from '../api/metrics';
import { MetricsPanel } from './MetricsPanel';
import styles from './monitoring.module.css';

/** The back office's 监控 of one host: its GPUs by index, its instances' CPU, memory and disk summed. */
export default function HostMetricsDrawer({
  host,
  title,
  onClose,
}: {
  host: { id: number };
  /** The back office's own text (its locale loads with its chunks). */
  title: string;
  onClose: () => void;
}) {
  const [range, setRange] = useState<MetricsRange>('1h');
  const query = useHostMetrics(host.id, range);
  const mobile = Grid.useBreakpoint().md === false;
  return (
    <Drawer
      open
      onClose={onClose}
      title={<span className={styles.title}>{title}</span>}
      size={mobile ? '100%' : 880}
      destroyOnHidden
      data-testid="host-metrics-drawer"
    >
      <MetricsPanel range={range} onRange={setRange} query={query} emptyText={tmon.hostEmpty} />
    </Drawer>
  );
}
