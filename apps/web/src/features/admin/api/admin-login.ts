import type { Admin } from '@gpu/shared/auth';
import { api } from '../../../lib/api-client';

export interface AdminLoginRequest {
  username: string;
  password: string;
}

/** POST /admin/auth/login: code '200', data.token and data.admin (with its roles). */
export const adminLogin = (body: AdminLoginRequest) =>
  api.post<{ token: string; admin: Admin }>('/admin/auth/login', body);
