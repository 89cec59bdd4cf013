import type { InstancePortsRequest } from '@gpu/shared/instance-ports';
import type { Instance } from '@gpu/shared/instances';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api-client';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { instanceKeys } from './keys';

/** PUT /gpu/instance/{uuid}/ports: the extra ports, while powered off (applies when the container is next made). */
export const setInstancePorts = (uuid: string, body: InstancePortsRequest) =>
  requestEnvelope<Instance>('PUT', `/gpu/instance/${uuid}/ports`, { body });

export function useSetInstancePorts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, ports }: { uuid: string; ports: number[] }) => setInstancePorts(uuid, { ports }),
    onSuccess: (answer) => void notify('success', answer.message),
    onError: (err) =>
      void notify(
        'error',
        failureMessage(err, { failed: t.extraPorts.saveFailed, retry: t.extraPorts.saveFailed }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
}
