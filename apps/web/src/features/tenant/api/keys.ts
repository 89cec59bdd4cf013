export const tenantKeys = {
  all: ['tenant'] as const,
  list: () => [...tenantKeys.all, 'list'] as const,
};
