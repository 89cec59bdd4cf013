import {
  type GpuSparklines,
  type HostMetricsSeries,
  METRICS_RANGE_SPECS,
  type MetricsRange,
  type MetricsSeries,
  SPARKLINE_STEP_MS,
  SPARKLINE_WINDOW_MS,
} from '@gpu/shared/monitoring';
import { hostErrors } from '../hosts/index.ts';
import { createInstancesRepository, instanceErrors } from '../instances/index.ts';
import type { MonitoringDeps } from './monitoring.deps.ts';
import { hostPoints, instancePoints, sparklinePoints } from './monitoring.models.ts';
import { createMonitoringRepository } from './monitoring.repository.ts';

type Caller = { id: number; tenantId: number };

/** One of the caller's instances over a range (METRICS_RANGE_SPECS); anyone else's is "not found". */
export async function instanceMetrics(
  deps: Pick<MonitoringDeps, 'db' | 'clock'>,
  caller: Caller,
  instanceId: number,
  range: MetricsRange,
): Promise<MetricsSeries> {
  const inst = await createInstancesRepository(deps).findOwned(instanceId, caller.id, caller.tenantId);
  if (!inst) throw instanceErrors.notFound();
  const spec = METRICS_RANGE_SPECS[range];
  const repo = createMonitoringRepository(deps);
  const from = new Date(deps.clock.now().getTime() - spec.windowMs);
  const rows =
    spec.source === 'raw' ? await repo.instanceRaw(inst.id, from) : await repo.instanceRollups(inst.id, from);
  return { range, stepSeconds: spec.stepSeconds, points: instancePoints(rows, spec.stepSeconds) };
}

/** A host over a range: its GPUs by index and its instances' CPU, memory and disk summed. */
export async function hostMetrics(
  deps: Pick<MonitoringDeps, 'db' | 'clock'>,
  hostId: number,
  range: MetricsRange,
): Promise<HostMetricsSeries> {
  const repo = createMonitoringRepository(deps);
  const gpuCount = await repo.hostGpuCount(hostId);
  if (gpuCount === null) throw hostErrors.notFound();
  const spec = METRICS_RANGE_SPECS[range];
  const from = new Date(deps.clock.now().getTime() - spec.windowMs);
  const rows =
    spec.source === 'raw' ? await repo.hostRaw(hostId, from) : await repo.hostRollups(hostId, from);
  const points = hostPoints(rows, spec.stepSeconds, gpuCount);
  return { range, stepSeconds: spec.stepSeconds, gpuCount: points[0]?.gpuUtil.length ?? gpuCount, points };
}

/** The caller's running instances: the last hour of each one's busiest GPU, per minute. */
export async function gpuSparklines(
  deps: Pick<MonitoringDeps, 'db' | 'clock'>,
  caller: Caller,
): Promise<GpuSparklines> {
  const repo = createMonitoringRepository(deps);
  const now = deps.clock.now();
  const ids = await repo.runningOf(caller.id, caller.tenantId);
  const lastMinute = Math.floor(now.getTime() / SPARKLINE_STEP_MS) * SPARKLINE_STEP_MS;
  const from = new Date(lastMinute - SPARKLINE_WINDOW_MS + SPARKLINE_STEP_MS);
  return sparklinePoints(ids, await repo.busiestPerMinute(ids, from), now);
}
