import { authKeys } from '../../auth/api/keys';

/** Query keys of the account's money (under the per-user prefix). */
export const billingKeys = {
  balance: () => [...authKeys.user, 'balance'] as const,
};
