import { Button } from 'antd';
import { tg } from '../../../locales/zh-CN.guards';
import { useAutoShutdownMarkers, useKeepRunning } from '../api/guards';

/**
 * 保持运行 on an idle-shutdown warning (bell and message centre): shown while that instance's
 * idle shutdown is still announced, so one click from the warning itself keeps it running.
 */
export function KeepRunningButton({ instanceId }: { instanceId: number }) {
  const markers = useAutoShutdownMarkers();
  const keep = useKeepRunning();
  const pending = (markers.data ?? []).some((m) => m.instanceId === instanceId && m.kind === 'idle');
  if (!pending) return null;
  return (
    <Button
      size="small"
      type="primary"
      ghost
      loading={keep.isPending}
      onClick={() => keep.mutate(instanceId)}
      data-testid={`notice-keep-running-${instanceId}`}
    >
      {tg.keepRunning}
    </Button>
  );
}
