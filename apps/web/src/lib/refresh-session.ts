import { api } from './api-client';
import type { LoginResponse } from './session';

/** POST /auth/refresh: the HttpOnly refresh cookie buys a new access token (and rotates). */
export const refreshSession = (options: { quietUnauthorized?: boolean } = {}) =>
  api.post<LoginResponse>('/auth/refresh', undefined, options);
