import { USER_QUERY_KEY } from '../../../lib/session';

/** Query keys of the signed-in user's data; `user` is the prefix every per-user query shares (dropped at login/logout). */
export const authKeys = {
  user: USER_QUERY_KEY,
  checkPhone: (phone: string) => ['auth', 'check-phone', phone] as const,
};
