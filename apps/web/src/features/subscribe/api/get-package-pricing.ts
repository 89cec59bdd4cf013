import type { PackagePricing } from '@gpu/shared/pricing';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { subscribeKeys } from './keys';

/** GET /api/v2/package-billing/pricing/by-gpu: the package prices configured for a GPU type. */
export const usePackagePricing = (gpuType: string, enabled: boolean) =>
  useQuery({
    queryKey: subscribeKeys.packagePricing(gpuType),
    queryFn: ({ signal }) =>
      api.get<PackagePricing[]>('/v2/package-billing/pricing/by-gpu', { query: { gpuType }, signal }),
    enabled,
  });
