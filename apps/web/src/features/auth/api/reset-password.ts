import { requestEnvelope } from '../../../lib/api-client';

export interface ResetPasswordRequest {
  phone: string;
  code: string;
  newPassword: string;
}

/** POST /auth/reset-password; answers the server's success message. */
export const resetPassword = async (body: ResetPasswordRequest) =>
  (await requestEnvelope<null>('POST', '/auth/reset-password', { body })).message;
