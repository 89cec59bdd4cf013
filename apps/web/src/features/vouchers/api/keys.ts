import { authKeys } from '../../auth/api/keys';

/** Query keys of the user's vouchers (under the per-user prefix). */
export const voucherKeys = {
  all: () => [...authKeys.user, 'vouchers'] as const,
  stats: () => [...voucherKeys.all(), 'stats'] as const,
  available: (gpuType: string, regionId: number) =>
    [...voucherKeys.all(), 'available', gpuType, regionId] as const,
};
