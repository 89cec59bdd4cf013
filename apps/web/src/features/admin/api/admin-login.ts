import type { Admin, AdminLoginResponse } from '@gpu/shared/auth';
import { api } from '../../../lib/api-client';

export interface AdminLoginRequest {
  username: string;
  password: string;
}

/** POST /admin/auth/login: the token and admin, or (2FA on) a challenge for the second step. */
export const adminLogin = (body: AdminLoginRequest) =>
  api.post<AdminLoginResponse>('/admin/auth/login', body);

/** POST /admin/auth/totp/verify: the challenge and a 6-digit code or a recovery code. */
export const adminVerifySecondFactor = (body: { challenge: string; code: string }) =>
  api.post<{ token: string; admin: Admin }>('/admin/auth/totp/verify', body);
