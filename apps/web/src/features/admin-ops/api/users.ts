import type { Page } from '@gpu/shared/envelope';
import type { AdminUser, AdminUserListQuery, AdminUserStatistics } from '@gpu/shared/operations';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { opsKeys } from './keys';

export type UserFilters = Partial<AdminUserListQuery> & { page: number; size: number };

export const useAdminUsers = (q: UserFilters) =>
  useQuery({
    queryKey: opsKeys.users(q),
    queryFn: ({ signal }) =>
      api.get<Page<AdminUser>>('/admin/user-management/users', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

export const useUserStatistics = () =>
  useQuery({
    queryKey: opsKeys.userStats(),
    queryFn: ({ signal }) => api.get<AdminUserStatistics>('/admin/user-management/statistics', { signal }),
  });
