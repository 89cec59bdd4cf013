import type { Webhook, WebhookTestResult } from '@gpu/shared/notifications';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notificationKeys } from './keys';

/** POST /user/webhooks answers the webhook with its whole secret: the only time it is shown. */
export type CreatedWebhook = Webhook & { secret: string };
export type WebhookDelivery = Webhook['deliveries'][number];

export const useWebhooks = () =>
  useQuery({
    queryKey: notificationKeys.webhooks(),
    queryFn: ({ signal }) => api.get<Webhook[]>('/user/webhooks', { signal }),
  });

export const addWebhook = (url: string) => api.post<CreatedWebhook>('/user/webhooks', { url });
export const setWebhookEnabled = (id: number, enabled: boolean) =>
  api.put<Webhook>(`/user/webhooks/${id}`, { enabled });
export const deleteWebhook = (id: number) => api.delete<null>(`/user/webhooks/${id}`);
export const testWebhook = (id: number) => api.post<WebhookTestResult>(`/user/webhooks/${id}/test`, {});
