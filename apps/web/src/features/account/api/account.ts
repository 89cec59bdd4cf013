import type { SignIn, User } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../../lib/api-client';
import { getSession } from '../../../lib/session';
import { replaceUserSession } from '../../auth/stored-session';
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

/** POST /user/change-phone; the stored user takes the new phone (the token stays valid). */
export async function changePhone(body: { newPhone: string; code: string }): Promise<string> {
  const answer = await requestEnvelope<User>('POST', '/user/change-phone', { body });
  const token = getSession().token;
  if (token) replaceUserSession(token, answer.data);
  return answer.message;
}
