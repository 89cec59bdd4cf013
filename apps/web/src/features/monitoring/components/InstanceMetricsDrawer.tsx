import type { MetricsRange } from '@gpu/shared/monitoring';
import { Drawer, Grid } from 'antd';
import { useState } from 'react';
import { tmon } from '../../../locales/zh-CN.monitoring';
import { useInstanceMetrics } from '../api/metrics';
import { MetricsPanel } from './MetricsPanel';
import styles from './monitoring.module.css';

/** 监控 of one instance: GPU utilisation and memory per GPU, CPU, memory and disk (loaded on first use). */
export default function InstanceMetricsDrawer({
  inst,
  onClose,
}: {
  inst: { uuid: string; name: string };
  onClose: () => void;
}) {
  const [range, setRange] = useState<MetricsRange>('1h');
  const query = useInstanceMetrics(inst.uuid, range);
  const mobile = Grid.useBreakpoint().md === false;
  return (
    <Drawer
      open
      onClose={onClose}
      title={
        <span className={styles.title} title={inst.name}>
          {tmon.title(inst.name)}
        </span>
      }
      size={mobile ? '100%' : 880}
      destroyOnHidden
      data-testid="metrics-drawer"
    >
      <MetricsPanel range={range} onRange={setRange} query={query} emptyText={tmon.empty} />
    </Drawer>
  );
}
