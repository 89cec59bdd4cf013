import { USER_QUERY_KEY } from '../../../lib/session';

export interface NotificationListFilters {
  page: number;
  size: number;
  unread?: boolean;
}

/** The message centre's queries (under the per-user prefix: dropped at logout). */
export const notificationKeys = {
  all: () => [...USER_QUERY_KEY, 'notifications'] as const,
  list: (filters: NotificationListFilters) => [...notificationKeys.all(), 'list', filters] as const,
  settings: () => [...USER_QUERY_KEY, 'notification-settings'] as const,
  webhooks: () => [...USER_QUERY_KEY, 'webhooks'] as const,
};
