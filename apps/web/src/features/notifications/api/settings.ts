import type { NotificationSettings } from '@gpu/shared/notifications';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notificationKeys } from './keys';

/** GET /user/notification-settings: per event, its channels; the low-balance threshold (yuan). */
export const useNotificationSettings = () =>
  useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => api.get<NotificationSettings>('/user/notification-settings', { signal }),
  });

export const saveNotificationSettings = (settings: NotificationSettings) =>
  api.put<NotificationSettings | null>('/user/notification-settings', settings);
