import type { AiNavigation } from '@gpu/shared/ai-navigation';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** Without a load event by then, the embedded page is treated as unavailable. */
export const AI_NAVIGATION_TIMEOUT_MS = 15_000;
/** While the server has not checked the page yet, ask again this often. */
const UNKNOWN_RETRY_MS = 1_500;

/** The tenant's page and whether the server found that it can show in our frame. */
export function useAiNavigation() {
  return useQuery({
    queryKey: ['tenant', 'ai-navigation'],
    queryFn: () => api.get<AiNavigation>('/tenant/ai-navigation'),
    refetchInterval: (query) => (query.state.data?.embed === 'unknown' ? UNKNOWN_RETRY_MS : false),
    staleTime: 60_000,
  });
}
