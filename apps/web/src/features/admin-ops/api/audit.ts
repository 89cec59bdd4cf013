import type { AuditLogEntry } from '@gpu/shared/audit';
import type { Page } from '@gpu/shared/envelope';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type AuditFilters, opsKeys } from './keys';

export type { AuditFilters };

export const useAuditLogs = (q: AuditFilters) =>
  useQuery({
    queryKey: opsKeys.audit(q),
    queryFn: ({ signal }) => api.get<Page<AuditLogEntry>>('/admin/audit-logs', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });

export const useAuditActions = () =>
  useQuery({
    queryKey: opsKeys.auditActions(),
    queryFn: ({ signal }) => api.get<string[]>('/admin/audit-logs/actions', { signal }),
    staleTime: 60_000,
  });
