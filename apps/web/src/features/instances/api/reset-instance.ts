import type { Page } from '@gpu/shared/envelope';
import type { Image } from '@gpu/shared/images';
import type { Instance } from '@gpu/shared/instances';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { waitForStable } from '../wait-for-stable';
import { instanceKeys } from './keys';

/** GET /api/gpu/images?platformType=local: the images an instance may change to (the server checks the GPU). */
export const useLocalImages = (enabled: boolean) =>
  useQuery({
    queryKey: [...instanceKeys.all, 'images', 'local'] as const,
    queryFn: ({ signal }) =>
      api.get<{ imageList: Image[] }>('/gpu/images', { query: { platformType: 'local' }, signal }),
    enabled,
    staleTime: 5 * 60_000,
  });

/**
 * POST /gpu/instance/reset?instance_uuid= with `{ image }` to change it: answers at once with
 * the instance RESETTING (the recreate is a job on the server). The row shows it at once; once
 * the polled list shows it STOPPED again, a new container means it worked (a failed job leaves
 * the old one).
 */
export function useResetInstance() {
  const queryClient = useQueryClient();
  const patch = (id: number, change: (i: Instance) => Instance) =>
    queryClient.setQueriesData<Page<Instance>>({ queryKey: instanceKeys.lists() }, (old) =>
      old ? { ...old, list: old.list.map((i) => (i.id === id ? change(i) : i)) } : old,
    );
  return useMutation({
    mutationFn: ({ inst, image }: { inst: Instance; image?: string }) =>
      api.post<Instance>('/gpu/instance/reset', image ? { image } : {}, {
        query: { instance_uuid: inst.uuid },
      }),
    onMutate: async ({ inst }) => {
      await queryClient.cancelQueries({ queryKey: instanceKeys.lists() });
      patch(inst.id, (i) => ({ ...i, status: 'RESETTING' }));
    },
    onSuccess: (updated, { inst, image }) => {
      const kind = image ? 'changeImage' : 'reset';
      patch(updated.id, () => updated);
      void waitForStable<Instance>(queryClient, instanceKeys.lists(), updated.id).then((end) => {
        if (end === null || end === 'gone') return;
        const worked = end.containerId !== inst.containerId && (!image || end.image === image);
        void notify(worked ? 'success' : 'error', worked ? t.instances.done[kind] : t.instances.failed[kind]);
      });
    },
    onError: (err, { image }) => {
      const kind = image ? 'changeImage' : 'reset';
      void notify('error', err instanceof Error && err.message ? err.message : t.instances.failed[kind]);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
}
