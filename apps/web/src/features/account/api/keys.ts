import { USER_QUERY_KEY } from '../../../lib/session';

/** Under the per-user prefix, so a sign-out drops them. */
export const accountKeys = {
  me: () => [...USER_QUERY_KEY, 'me'] as const,
  signIns: () => [...USER_QUERY_KEY, 'sign-ins'] as const,
  sshKeys: () => [...USER_QUERY_KEY, 'ssh-keys'] as const,
  accessTokens: () => [...USER_QUERY_KEY, 'access-tokens'] as const,
};
