import type { Admin } from '@gpu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * GET /admin/auth/me when the back office opens: confirms the stored admin session. A 401
 * clears it and sends the browser to /admin/login (the client's 401 rule, SPEC.md §4).
 */
export const useAdminProfile = () =>
  useQuery({ queryKey: ['admin', 'me'], queryFn: () => api.get<Admin>('/admin/auth/me'), retry: false });
