import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/feedback';
import { catalogueKeys } from './keys';

/**
 * A back-office write: on success a toast (`success`, or what it makes of the answer) and every
 * catalogue query refetched (hosts, SKUs, prices and tenants show each other's counts); on failure the
 * server's message (it names the field).
 */
export function useAdminMutation<I, O>(
  fn: (input: I) => Promise<O>,
  success: string | ((answer: O) => string),
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (answer) => {
      void notify('success', typeof success === 'string' ? success : success(answer));
      void client.invalidateQueries({ queryKey: catalogueKeys.all });
    },
    onError: (err: Error) => {
      void notify('error', err.message);
    },
  });
}
