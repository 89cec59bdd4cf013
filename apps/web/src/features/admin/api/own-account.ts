import type { AdminSession } from '@gpu/shared/admins';
import type { Admin } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** The signed-in administrator's own account (issue 29): allowed even while a step is forced. */

export const changeOwnPassword = (body: { currentPassword: string; newPassword: string }) =>
  api.post<Admin>('/admin/auth/change-password', body);

export const enrolTotp = () => api.post<{ uri: string; secret: string }>('/admin/auth/totp/enrol', {});

export const confirmTotp = (code: string) =>
  api.post<{ recoveryCodes: string[] }>('/admin/auth/totp/confirm', { code });

export const disableTotp = (password: string) => api.post<null>('/admin/auth/totp/disable', { password });

export const regenerateRecoveryCodes = (code: string) =>
  api.post<{ recoveryCodes: string[] }>('/admin/auth/totp/recovery-codes', { code });

export const useMySessions = () =>
  useQuery({
    queryKey: adminKeys.mySessions(),
    queryFn: () => api.get<AdminSession[]>('/admin/auth/sessions'),
  });

export const endMySession = (sid: string) =>
  api.delete<null>(`/admin/auth/sessions/${encodeURIComponent(sid)}`);
