import type { RegisterRequest, User } from '@gpu/shared/auth';
import { requestEnvelope } from '../../../lib/api-client';

/** POST /auth/register; answers the server's success message (注册成功，请登录). */
export const register = async (body: RegisterRequest) =>
  (await requestEnvelope<User>('POST', '/auth/register', { body })).message;
