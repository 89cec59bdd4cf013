import { authKeys } from '../../auth/api/keys';

/** Under the per-user prefix, so a sign-out drops them. */
export const accountKeys = {
  signIns: () => [...authKeys.user, 'sign-ins'] as const,
};
