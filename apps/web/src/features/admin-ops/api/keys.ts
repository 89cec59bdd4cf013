import type { AdminInstanceListQuery, AdminUserListQuery } from '@gpu/shared/operations';
import { ADMIN_QUERY_KEY } from '../../../lib/session';

export interface AuditFilters {
  page: number;
  size: number;
  adminId?: number;
  action?: string;
  target?: string;
  startDate?: string;
  endDate?: string;
}

/** Query keys of the operations screens (under the admin prefix: dropped at admin login). */
export const opsKeys = {
  all: () => [...ADMIN_QUERY_KEY, 'ops'] as const,
  balance: () => [...opsKeys.all(), 'balance'] as const,
  warnings: (q: { hours: number; page: number; size: number }) =>
    [...opsKeys.balance(), 'warnings', q] as const,
  balanceStats: () => [...opsKeys.balance(), 'stats'] as const,
  health: () => [...opsKeys.balance(), 'health'] as const,
  users: (q: Partial<AdminUserListQuery>) => [...opsKeys.all(), 'users', q] as const,
  userStats: () => [...opsKeys.all(), 'users', 'statistics'] as const,
  instances: () => [...opsKeys.all(), 'instances'] as const,
  instanceList: (kind: 'user' | 'all', q: Partial<AdminInstanceListQuery>) =>
    [...opsKeys.instances(), kind, q] as const,
  monitorStats: () => [...opsKeys.instances(), 'statistics'] as const,
  audit: (q: AuditFilters) => [...opsKeys.all(), 'audit', q] as const,
  auditActions: () => [...opsKeys.all(), 'audit', 'actions'] as const,
  auditAdmins: () => [...opsKeys.all(), 'audit', 'admins'] as const,
  dashboard: (q: object) => [...opsKeys.all(), 'dashboard', q] as const,
};
