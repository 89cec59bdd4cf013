import type { Instance } from '@gpu/shared/instances';
import type { InstanceSshSettings } from '@gpu/shared/ssh-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api-client';
import { failureMessage } from '../../../lib/failure-message';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { instanceKeys } from './keys';

/** PUT /gpu/instance/{uuid}/ssh: password sign-in on or off (applies at the next create or power on). */
export const setInstanceSsh = (uuid: string, body: InstanceSshSettings) =>
  requestEnvelope<Instance>('PUT', `/gpu/instance/${uuid}/ssh`, { body });

export function useSetInstanceSsh() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, passwordAuth }: { uuid: string; passwordAuth: boolean }) =>
      setInstanceSsh(uuid, { passwordAuth }),
    onSuccess: (answer) => void notify('success', answer.message),
    onError: (err) =>
      void notify(
        'error',
        failureMessage(err, { failed: t.instances.sshSwitchFailed, retry: t.instances.sshSwitchFailed }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceKeys.all }),
  });
}
