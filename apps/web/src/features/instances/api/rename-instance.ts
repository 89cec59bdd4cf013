import type { Instance, RenameInstanceRequest } from '@gpu/shared/instances';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { instanceKeys } from './keys';

/** PATCH /gpu/instances/{id}: a new name (the server checks it as at create). */
export const renameInstance = (id: number, body: RenameInstanceRequest) =>
  api.patch<Instance>(`/gpu/instances/${id}`, body);

export function useRenameInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, instanceName }: { id: number; instanceName: string }) =>
      renameInstance(id, { instanceName }),
    onSuccess: () => void notify('success', t.instances.renamed),
    onError: (err) =>
      void notify('error', err instanceof Error && err.message ? err.message : t.instances.renameFailed),
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
}
