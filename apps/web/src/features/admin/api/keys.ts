import { ADMIN_QUERY_KEY } from '../../../lib/session';

/** Query keys of the admin console (dropped at admin login). */
export const adminKeys = {
  all: ADMIN_QUERY_KEY,
  me: () => [...adminKeys.all, 'me'] as const,
};
