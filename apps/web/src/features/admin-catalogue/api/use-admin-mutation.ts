import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../../../lib/feedback';
import { catalogueKeys } from './keys';

/**
 * A back-office write: on success a toast with the server's wording and every catalogue query
 * refetched (hosts, SKUs, prices and tenants show each other's counts); on failure the
 * server's message (it names the field).
 */
export function useAdminMutation<I, O>(fn: (input: I) => Promise<O>, success: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void notify('success', success);
      void client.invalidateQueries({ queryKey: catalogueKeys.all });
    },
    onError: (err: Error) => {
      void notify('error', err.message);
    },
  });
}
