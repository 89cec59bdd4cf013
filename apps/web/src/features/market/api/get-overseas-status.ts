import type { VastaiStatus } from '@gpu/shared/vastai';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { marketKeys } from './keys';

/** GET /api/gpu/vastai/status: whether overseas (vast.ai) machines can be shown. */
export const useOverseasStatus = (enabled: boolean) =>
  useQuery({
    queryKey: marketKeys.overseasStatus(),
    queryFn: ({ signal }) => api.get<VastaiStatus>('/gpu/vastai/status', { signal }),
    enabled,
    staleTime: 60_000,
  });
