import type { GpuSparklines } from '@gpu/shared/monitoring';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { monitoringKeys } from './keys';

/** The sparklines hold one point per minute: asking more often finds nothing new. */
export const SPARKLINE_REFRESH_MS = 60_000;

/**
 * GET /gpu/instances/gpu-sparklines: the last hour of every running instance's busiest GPU, one
 * request for the whole list, asked only while the list shows a running instance. Answers a map
 * by instance uuid (undefined until the first answer).
 */
export function useGpuSparklines(enabled: boolean) {
  const query = useQuery({
    queryKey: monitoringKeys.sparklines(),
    queryFn: ({ signal }) => api.get<GpuSparklines>('/gpu/instances/gpu-sparklines', { signal }),
    enabled,
    refetchInterval: SPARKLINE_REFRESH_MS,
    select: (list) => new Map(list.map((s) => [s.instanceUuid, s.points])),
  });
  return query.data;
}
