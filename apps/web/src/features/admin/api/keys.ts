/** Query keys of the admin console (dropped at admin login). */
export const adminKeys = {
  all: ['admin'] as const,
  me: () => [...adminKeys.all, 'me'] as const,
};
