import type { CalculatePriceResponse } from '@gpu/shared/pricing';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { QuoteInput } from './keys';
import { subscribeKeys } from './keys';

export type { QuoteInput };

/**
 * POST /api/v2/package-billing/calculate-price: the server's own figures for the order, shown
 * beside ours (they come from the same pricing function, so they agree unless a price changed).
 * `discountLive` only re-asks once a discount has ended on screen.
 */
export const useQuote = (input: QuoteInput | null, discountLive: boolean) =>
  useQuery({
    queryKey: subscribeKeys.quote(input, discountLive),
    queryFn: ({ signal }) => {
      const q = input as QuoteInput;
      return api.post<CalculatePriceResponse>(
        '/v2/package-billing/calculate-price',
        {
          machineId: q.machineId,
          billingType: q.billingType,
          duration: q.billingType === 'hourly' ? 1 : q.duration,
          gpuAmount: q.gpuAmount,
          ...(q.voucherId === null ? {} : { voucherId: q.voucherId }),
        },
        { signal },
      );
    },
    enabled: input !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });
