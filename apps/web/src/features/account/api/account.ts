import type { ChangePhoneRequest, SignIn } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../../lib/api-client';
import type { LoginResponse } from '../../../lib/session';
import { replaceUserSession } from '../../../lib/stored-session';
import { accountKeys } from './keys';

/** GET /user/sign-ins: the latest sign-ins (time, address, device). */
export const useSignIns = () =>
  useQuery({
    queryKey: accountKeys.signIns(),
    queryFn: ({ signal }) => api.get<SignIn[]>('/user/sign-ins', { signal }),
    staleTime: 10_000,
  });

/** POST /auth/send-verification-code with codeType CHANGE_PHONE: the code goes to the new phone. */
export const sendChangePhoneCode = async (phone: string) =>
  (
    await requestEnvelope<{ code?: string }>('POST', '/auth/send-verification-code', {
      body: { phone, codeType: 'CHANGE_PHONE' },
    })
  ).data;

/**
 * POST /user/change-phone (current password, new phone, its code). The server ends every session
 * and answers a fresh one, which replaces the stored session (with the new phone); answers the message.
 */
export async function changePhone(body: ChangePhoneRequest): Promise<string> {
  const answer = await requestEnvelope<LoginResponse>('POST', '/user/change-phone', { body });
  replaceUserSession(answer.data.accessToken, answer.data.user);
  return answer.message;
}
