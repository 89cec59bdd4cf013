import type { SshKey, SshKeyCreate } from '@gpu/shared/ssh-keys';
import { useQuery } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../../lib/api-client';
import { accountKeys } from './keys';

/** GET /user/ssh-keys: the user's SSH public keys, oldest first. */
export const useSshKeys = () =>
  useQuery({
    queryKey: accountKeys.sshKeys(),
    queryFn: ({ signal }) => api.get<SshKey[]>('/user/ssh-keys', { signal }),
    staleTime: 10_000,
  });

/** POST /user/ssh-keys; answers the server's message. */
export const addSshKey = async (body: SshKeyCreate) =>
  (await requestEnvelope<SshKey>('POST', '/user/ssh-keys', { body })).message;

/** DELETE /user/ssh-keys/:id; answers the server's message. */
export const deleteSshKey = async (id: number) =>
  (await requestEnvelope<null>('DELETE', `/user/ssh-keys/${id}`)).message;
