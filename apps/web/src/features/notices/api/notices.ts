import type { UserNotice } from '@gpu/shared/operations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { noticeKeys } from './keys';

/** GET /user/notices?unread=true: what an admin did to the user's instances, not yet acknowledged. */
export const getUnreadNotices = (signal?: AbortSignal) =>
  api.get<UserNotice[]>('/user/notices', { query: { unread: true }, signal });

export const useUnreadNotices = () =>
  useQuery({
    queryKey: noticeKeys.unread(),
    queryFn: ({ signal }) => getUnreadNotices(signal),
    refetchInterval: 30_000,
  });

/** POST /user/notices/read: one notice, or all without an id. */
export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id?: number) => api.post<null>('/user/notices/read', id === undefined ? {} : { id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noticeKeys.all() }),
  });
}
