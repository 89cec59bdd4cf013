import type { HostMetricsSeries, MetricsRange, MetricsSeries } from '@gpu/shared/monitoring';
import { ROLLUP_BUCKET_MS, SAMPLE_INTERVAL_MS } from '@gpu/shared/monitoring-constants';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { hostView, instanceView } from '../metrics-view';
import { monitoringKeys } from './keys';

/**
 * The 1 h chart follows the samplers (a point per 15 s); longer ranges move by 5-minute buckets,
 * so polling them as often would fetch the same points again.
 */
export const refreshInterval = (range: MetricsRange) =>
  range === '1h' ? SAMPLE_INTERVAL_MS : ROLLUP_BUCKET_MS;

/** GET /gpu/instance/{uuid}/metrics?range=: one instance's charts. */
export const useInstanceMetrics = (uuid: string, range: MetricsRange) =>
  useQuery({
    queryKey: monitoringKeys.instance(uuid, range),
    queryFn: ({ signal }) =>
      api.get<MetricsSeries>(`/gpu/instance/${encodeURIComponent(uuid)}/metrics`, {
        query: { range },
        signal,
      }),
    select: instanceView,
    refetchInterval: refreshInterval(range),
  });

/** GET /admin/hosts/{id}/metrics?range=: a host's GPUs by index, its instances' CPU, memory and disk summed. */
export const useHostMetrics = (id: number, range: MetricsRange) =>
  useQuery({
    queryKey: monitoringKeys.host(id, range),
    queryFn: ({ signal }) =>
      api.get<HostMetricsSeries>(`/admin/hosts/${id}/metrics`, { query: { range }, signal }),
    select: hostView,
    refetchInterval: refreshInterval(range),
  });
