import type { BillingType } from '@gpu/shared/constants';

export interface QuoteInput {
  machineId: number;
  billingType: BillingType;
  duration: number;
  gpuAmount: number;
  voucherId: number | null;
}

/** Query keys of the subscribe screen (dropped after a purchase). */
export const subscribeKeys = {
  all: ['subscribe'] as const,
  item: (skuGpuId: string) => [...subscribeKeys.all, 'item', skuGpuId] as const,
  images: (gpuBrand: string, platformType: string) =>
    [...subscribeKeys.all, 'images', gpuBrand, platformType] as const,
  quote: (input: QuoteInput | null, discountLive: boolean) =>
    [...subscribeKeys.all, 'quote', input, discountLive] as const,
  packagePricing: (gpuType: string) => [...subscribeKeys.all, 'package-pricing', gpuType] as const,
};
