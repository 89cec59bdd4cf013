import type { Instance } from '@gpu/shared/instances';
import { formatTime } from '@gpu/shared/time';
import { Button } from 'antd';
import { tg } from '../../../locales/zh-CN.guards';
import { useAutoShutdownMarkers, useKeepRunning } from '../api/guards';
import styles from './guards.module.css';

const g = tg;
/** The stop reason of a user's own power off: nothing to explain. */
const USER_STOP = '用户关机';

/**
 * Beside an instance's status: a shutdown that is scheduled (定时关机 MM-DD HH:mm) or announced
 * (GPU idle, with 保持运行), or why a stopped instance stopped (因GPU空闲自动关机, 定时关机,
 * 达到消费上限自动关机 …; arrears and expiry have their own banner).
 */
export function GuardMarker({ inst }: { inst: Pick<Instance, 'id' | 'status' | 'stopReason' | 'warning'> }) {
  const markers = useAutoShutdownMarkers();
  const keep = useKeepRunning();
  if (inst.status === 'STOPPED') {
    if (!inst.stopReason || inst.stopReason === USER_STOP || inst.warning) return null;
    return (
      <span className={styles.reason} data-testid="stop-reason">
        {inst.stopReason}
      </span>
    );
  }
  if (inst.status !== 'RUNNING') return null;
  const mine = (markers.data ?? []).filter((m) => m.instanceId === inst.id);
  const first = mine.sort((a, b) => a.shutdownAt.localeCompare(b.shutdownAt))[0];
  if (!first) return null;
  const at = formatTime(first.shutdownAt, 'MM-DD HH:mm');
  if (first.kind === 'scheduled') {
    return (
      <span className={`${styles.marker} ${styles.scheduled}`} data-testid={`guard-marker-${inst.id}`}>
        {g.scheduledAt(at)}
      </span>
    );
  }
  return (
    <span className={`${styles.marker} ${styles.idle}`} data-testid={`guard-marker-${inst.id}`}>
      {g.idleWarning(at)}
      <Button
        size="small"
        type="link"
        loading={keep.isPending}
        onClick={() => keep.mutate(inst.id)}
        data-testid={`keep-running-${inst.id}`}
      >
        {g.keepRunning}
      </Button>
    </span>
  );
}
