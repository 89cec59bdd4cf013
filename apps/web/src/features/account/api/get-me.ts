import type { User } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, api } from '../../../lib/api-client';
import { clearUserSession, getSession } from '../../../lib/session';
import { replaceUserSession } from '../../../lib/stored-session';
import { accountKeys } from './keys';

/** SPEC.md §8: a 401, or a message saying the caller is not authorised, logs the user out. */
export const isUnauthorized = (err: unknown) =>
  err instanceof ApiError && (err.status === 401 || /未授权|unauthori[sz]ed/i.test(err.message));

/**
 * GET /auth/me: the current user, kept fresh in the stored session (the enterprise badge may
 * change). A 401 is handled by the client's 401 rule; "unauthorised" messages also log out.
 */
export function useCurrentUser(enabled = true) {
  const query = useQuery({
    queryKey: accountKeys.me(),
    queryFn: () => api.get<User>('/auth/me'),
    enabled,
    retry: false,
  });
  const { data, error } = query;

  useEffect(() => {
    const { token, user } = getSession();
    if (!data || !token || !user || user.id !== data.id) return;
    if (JSON.stringify(user) !== JSON.stringify(data)) replaceUserSession(token, data);
  }, [data]);

  useEffect(() => {
    if (error && isUnauthorized(error)) clearUserSession();
  }, [error]);

  return query;
}
