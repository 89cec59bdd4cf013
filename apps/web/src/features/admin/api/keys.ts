import { ADMIN_QUERY_KEY } from '../../../lib/session';

/** Query keys of the admin console (dropped at admin login). */
export const adminKeys = {
  all: ADMIN_QUERY_KEY,
  me: () => [...adminKeys.all, 'me'] as const,
  mySessions: () => [...adminKeys.all, 'me', 'sessions'] as const,
  admins: () => [...adminKeys.all, 'admins'] as const,
  adminSessions: (id: number) => [...adminKeys.admins(), id, 'sessions'] as const,
  totpPolicy: () => [...adminKeys.all, 'admins', 'totp-policy'] as const,
};
