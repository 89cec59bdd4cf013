import type { AuditActor, AuditLogEntry } from '@gpu/shared/audit';
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

/** The administrators seen in the log, for the admin filter. */
export const useAuditAdmins = () =>
  useQuery({
    queryKey: opsKeys.auditAdmins(),
    queryFn: ({ signal }) => api.get<AuditActor[]>('/admin/audit-logs/admins', { signal }),
    staleTime: 60_000,
  });
