import type { Admin } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { getSession } from '../../../lib/session';
import { t } from '../../../locales/zh-CN';
import { adminKeys } from './keys';

/** SPEC.md §8: no admin token → 'not logged in'; otherwise the call. */
export async function getAdminProfile(): Promise<Admin> {
  if (!getSession().adminToken) throw new ApiError('401', t.adminLogin.notLoggedIn, 0);
  return api.get<Admin>('/admin/auth/me');
}

/**
 * GET /admin/auth/me when the back office opens: confirms the stored admin session. A 401
 * clears it and sends the browser to /admin/login (the client's 401 rule, SPEC.md §4); other
 * failures say 'failed to get profile'.
 */
export function useAdminProfile() {
  const query = useQuery({ queryKey: adminKeys.me(), queryFn: getAdminProfile, retry: false });
  const { error } = query;
  useEffect(() => {
    if (error instanceof ApiError && (error.status === 401 || error.code === '401')) return;
    if (error) void notify('error', t.adminLogin.profileFailed);
  }, [error]);
  return query;
}
