import type { Instance } from '@gpu/shared/instances';
import { Button } from 'antd';
import { tmon } from '../../../locales/zh-CN.monitoring';
import { GpuSparkline } from '../../monitoring';
import { canMonitor, inNoGpuMode, type RowAction } from '../instance-status';
import styles from './cells.module.css';

/**
 * GPU utilisation of the last hour (running with GPUs) and the way into 监控. `sparklines` is
 * the list's one answer by uuid; undefined until it arrives (nothing drawn, rather than 暂无数据).
 */
export function MonitorCell({
  inst,
  sparklines,
  onAction,
}: {
  inst: Instance;
  sparklines: ReadonlyMap<string, number[]> | undefined;
  onAction: (action: RowAction, inst: Instance) => void;
}) {
  if (!canMonitor(inst)) return null;
  const live = inst.status === 'RUNNING' && !inNoGpuMode(inst) && sparklines !== undefined;
  return (
    <div className={styles.monitor}>
      {live ? <GpuSparkline points={sparklines.get(inst.uuid)} /> : null}
      <Button
        type="link"
        size="small"
        className={styles.monitorLink}
        onClick={() => onAction('monitor', inst)}
        data-testid="instance-monitor"
      >
        {tmon.action}
      </Button>
    </div>
  );
}
