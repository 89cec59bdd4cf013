import type {
  AutoShutdown,
  AutoShutdownInput,
  AutoShutdownMarker,
  SpendingCaps,
  SpendingCapsInput,
} from '@gpu/shared/guards';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../../lib/api-client';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { tg } from '../../../locales/zh-CN.guards';

const g = tg;

/** Query keys of the guards (自动关机, 消费上限). */
export const guardKeys = {
  all: ['guards'] as const,
  markers: () => [...guardKeys.all, 'markers'] as const,
  instance: (id: number) => [...guardKeys.all, 'instance', id] as const,
  caps: () => [...guardKeys.all, 'caps'] as const,
};

/** GET /gpu/auto-shutdown: running instances with a shutdown scheduled or announced (one query for all rows). */
export const useAutoShutdownMarkers = () =>
  useQuery({
    queryKey: guardKeys.markers(),
    queryFn: ({ signal }) => api.get<AutoShutdownMarker[]>('/gpu/auto-shutdown', { signal }),
    staleTime: 20_000,
    refetchInterval: 60_000,
  });

/** GET /gpu/instance/{uuid}/auto-shutdown. */
export const useAutoShutdown = (id: number) =>
  useQuery({
    queryKey: guardKeys.instance(id),
    queryFn: ({ signal }) => api.get<AutoShutdown>(`/gpu/instance/${id}/auto-shutdown`, { signal }),
  });

/** PUT /gpu/instance/{uuid}/auto-shutdown; the server's message on success. */
export function useSaveAutoShutdown(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoShutdownInput) =>
      requestEnvelope<AutoShutdown>('PUT', `/gpu/instance/${id}/auto-shutdown`, { body }),
    onSuccess: (answer) => void notify('success', answer.message || g.saved),
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: g.saveFailed, retry: g.saveFailed })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guardKeys.all }),
  });
}

/** POST /gpu/instance/{uuid}/auto-shutdown/keep-running (保持运行). */
export function useKeepRunning() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      requestEnvelope<AutoShutdown>('POST', `/gpu/instance/${id}/auto-shutdown/keep-running`),
    onSuccess: () => void notify('success', g.keepRunningDone),
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: g.keepRunningFailed, retry: g.keepRunningFailed })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guardKeys.all }),
  });
}

/** GET /user/spending-caps: the caps, the idle default, and what is spent today and this month. */
export const useSpendingCaps = () =>
  useQuery({
    queryKey: guardKeys.caps(),
    queryFn: ({ signal }) => api.get<SpendingCaps>('/user/spending-caps', { signal }),
    refetchInterval: 60_000,
  });

export function useSaveSpendingCaps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SpendingCapsInput) =>
      requestEnvelope<SpendingCaps>('PUT', '/user/spending-caps', { body }),
    onSuccess: (answer) => void notify('success', answer.message || g.capsSaved),
    onError: (err) =>
      void notify('error', failureMessage(err, { failed: g.capsSaveFailed, retry: g.capsSaveFailed })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: guardKeys.all }),
  });
}
