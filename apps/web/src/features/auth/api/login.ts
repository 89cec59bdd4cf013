import type { User } from '@gpu/shared/auth';
import { requestEnvelope } from '../../../lib/api-client';

export interface LoginRequest {
  phone: string;
  password: string;
  rememberMe: boolean;
}

export interface LoginResponse {
  accessToken: string;
  user: User;
}

/** POST /auth/login: the access token and user (the refresh token comes as an HttpOnly cookie). */
export const login = async (body: LoginRequest) =>
  (await requestEnvelope<LoginResponse>('POST', '/auth/login', { body })).data;
