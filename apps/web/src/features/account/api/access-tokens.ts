import type { AccessToken, AccessTokenCreate, AccessTokenCreated } from '@gpu/shared/access-tokens';
import { useQuery } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../../lib/api-client';
import { accountKeys } from './keys';

/** GET /user/access-tokens: the user's live API tokens (never the tokens themselves). */
export const useAccessTokens = () =>
  useQuery({
    queryKey: accountKeys.accessTokens(),
    queryFn: ({ signal }) => api.get<AccessToken[]>('/user/access-tokens', { signal }),
    staleTime: 10_000,
  });

/** POST /user/access-tokens: answers the new token, whose secret is shown this once. */
export const createAccessToken = (body: AccessTokenCreate) =>
  api.post<AccessTokenCreated>('/user/access-tokens', body);

/** DELETE /user/access-tokens/:id (refused at once from then on); answers the server's message. */
export const revokeAccessToken = async (id: number) =>
  (await requestEnvelope<null>('DELETE', `/user/access-tokens/${id}`)).message;
