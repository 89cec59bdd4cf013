/** Query keys of the signed-in user's data; `user` is the prefix every per-user query shares (dropped at login/logout). */
export const authKeys = {
  user: ['user'] as const,
  me: () => [...authKeys.user, 'me'] as const,
  checkPhone: (phone: string) => ['auth', 'check-phone', phone] as const,
};
