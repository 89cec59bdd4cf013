import type { Admin } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, api } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { getSession, setAdminSession } from '../../../lib/session';
import { ta } from '../../../locales/zh-CN.admin';
import { adminKeys } from './keys';

/** SPEC.md §8: no admin token → 'not logged in'; otherwise the call. */
export async function getAdminProfile(): Promise<Admin> {
  if (!getSession().adminToken) throw new ApiError('401', ta.adminLogin.notLoggedIn, 0);
  return api.get<Admin>('/admin/auth/me');
}

/** The stored copy follows the server's answer: a new role or a finished forced step shows at once. */
function storeProfile(admin: Admin) {
  const { adminToken, admin: stored } = getSession();
  if (adminToken && JSON.stringify(stored) !== JSON.stringify(admin)) setAdminSession(adminToken, admin);
}

/**
 * GET /admin/auth/me when the back office opens: confirms the stored admin session and brings
 * its role, permissions and forced steps up to date. A 401
 * clears it and sends the browser to /admin/login (the client's 401 rule, SPEC.md §4); other
 * failures say 'failed to get profile'.
 */
export function useAdminProfile() {
  const query = useQuery({ queryKey: adminKeys.me(), queryFn: getAdminProfile, retry: false });
  const { error, data } = query;
  useEffect(() => {
    if (data) storeProfile(data);
  }, [data]);
  useEffect(() => {
    if (error instanceof ApiError && (error.status === 401 || error.code === '401')) return;
    if (error) void notify('error', ta.adminLogin.profileFailed);
  }, [error]);
  return query;
}
