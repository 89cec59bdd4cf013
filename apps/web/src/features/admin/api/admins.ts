import type { AdminRole } from '@gpu/shared/admin-access';
import type { AdminListItem, AdminSession, TotpPolicy } from '@gpu/shared/admins';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** The administrators screen (管理员, super administrators only). */

export const useAdmins = () =>
  useQuery({ queryKey: adminKeys.admins(), queryFn: () => api.get<AdminListItem[]>('/admin/admins') });

export const createAdmin = (body: { username: string; role: AdminRole; tenantId: number | null }) =>
  api.post<{ admin: AdminListItem; password: string }>('/admin/admins', body);

export const updateAdmin = ({
  id,
  ...body
}: {
  id: number;
  role?: AdminRole;
  tenantId?: number | null;
  status?: 'ACTIVE' | 'DISABLED';
}) => api.put<AdminListItem>(`/admin/admins/${id}`, body);

export const resetAdminPassword = (id: number) =>
  api.post<{ password: string }>(`/admin/admins/${id}/reset-password`);

export const resetAdminTotp = (id: number) => api.post<null>(`/admin/admins/${id}/reset-totp`);

export const useAdminSessions = (id: number | null) =>
  useQuery({
    queryKey: adminKeys.adminSessions(id ?? 0),
    queryFn: () => api.get<AdminSession[]>(`/admin/admins/${id}/sessions`),
    enabled: id !== null,
  });

export const endAdminSession = ({ id, sid }: { id: number; sid: string }) =>
  api.delete<null>(`/admin/admins/${id}/sessions/${encodeURIComponent(sid)}`);

export const useTotpPolicy = () =>
  useQuery({
    queryKey: adminKeys.totpPolicy(),
    queryFn: () => api.get<TotpPolicy>('/admin/admins/totp-policy'),
  });

export const saveTotpPolicy = (policy: TotpPolicy) =>
  api.put<TotpPolicy>('/admin/admins/totp-policy', policy);
