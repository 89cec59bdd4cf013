import { requestEnvelope } from '../../../lib/api-client';
import type { LoginResponse } from '../../../lib/session';

export interface LoginRequest {
  phone: string;
  password: string;
  rememberMe: boolean;
}

/** POST /auth/login: the access token and user (the refresh token comes as an HttpOnly cookie). */
export const login = async (body: LoginRequest) =>
  (await requestEnvelope<LoginResponse>('POST', '/auth/login', { body })).data;
