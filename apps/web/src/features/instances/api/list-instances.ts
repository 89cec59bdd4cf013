import type { Page } from '@gpu/shared/envelope';
import type { Instance } from '@gpu/shared/instances';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pollInterval } from '../instance-status';
import type { InstanceListQuery } from './keys';
import { instanceKeys } from './keys';

export type { InstanceListQuery };

/** GET /gpu/instances: the user's instances, newest first. */
export const fetchInstances = (q: InstanceListQuery, signal?: AbortSignal) =>
  api.get<Page<Instance>>('/gpu/instances', { query: { ...q }, signal });

/**
 * The list, refreshed live: every 2 s while an instance is in a transitional state, else every
 * 15 s (pollInterval).
 */
export const useInstances = (q: InstanceListQuery, options: { live?: boolean } = {}) =>
  useQuery({
    queryKey: instanceKeys.list(q),
    queryFn: ({ signal }) => fetchInstances(q, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: options.live === false ? false : (query) => pollInterval(query.state.data?.list),
  });
