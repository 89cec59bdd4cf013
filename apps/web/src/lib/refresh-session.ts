import type { Admin } from '@gpu/shared/auth';
import { api } from './api-client';
import type { LoginResponse } from './session';

/** POST /auth/refresh: the HttpOnly refresh cookie buys a new access token (and rotates). */
export const refreshSession = (options: { quietUnauthorized?: boolean } = {}) =>
  api.post<LoginResponse>('/auth/refresh', undefined, options);

/** POST /admin/auth/refresh: the same for the administrator's own cookie (issue 29). */
export const refreshAdminSession = (options: { quietUnauthorized?: boolean } = {}) =>
  api.post<{ token: string; admin: Admin }>('/admin/auth/refresh', undefined, options);
