import type { NotificationPage } from '@gpu/shared/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type NotificationListFilters, notificationKeys } from './keys';

/** GET /user/notifications (1-based pages, newest first); `unread` counts the account's unread. */
export const getNotifications = (filters: NotificationListFilters, signal?: AbortSignal) =>
  api.get<NotificationPage>('/user/notifications', { query: { ...filters }, signal });

/** What the bell shows: the latest few and the unread count, in one small request. */
export const BELL_FILTERS: NotificationListFilters = { page: 1, size: 6 };
/** The bell asks again this often, and whenever the window gets focus back. */
export const BELL_POLL_MS = 60_000;

export const useBellNotifications = (enabled: boolean) =>
  useQuery({
    queryKey: notificationKeys.list(BELL_FILTERS),
    queryFn: ({ signal }) => getNotifications(BELL_FILTERS, signal),
    enabled,
    refetchInterval: BELL_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
  });

export const useNotifications = (filters: NotificationListFilters) =>
  useQuery({
    queryKey: notificationKeys.list(filters),
    queryFn: ({ signal }) => getNotifications(filters, signal),
    placeholderData: keepPreviousData,
  });

/**
 * POST /user/notifications/read: these ids, or every unread one without ids. Every list (the
 * bell's, the centre's, the instance page's banner) is read again after it.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => api.post<null>('/user/notifications/read', ids ? { ids } : {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
  });
}
