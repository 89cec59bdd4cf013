import type { BillingType } from '@gpu/shared/constants';
import { useQuote } from './api/calculate-price';
import type { QuoteState } from './components/OrderBar';
import { type Figures, quoteFigures, quoteMatches } from './order-figures';

export interface OrderQuoteInput {
  machineId: number;
  billingType: BillingType;
  duration: number;
  gpuAmount: number;
  voucherId: number | null;
  /** No idle GPU: nothing to ask about. */
  orderable: boolean;
  discountLive: boolean;
  /** The screen's own figures for the same order. */
  local: Figures;
}

/**
 * The server's quote for the order on screen: shown as verified when it agrees with the screen's
 * figures, and its figures win when it differs (a price changed meanwhile).
 */
export function useOrderQuote(o: OrderQuoteInput) {
  const quote = useQuote(
    o.orderable
      ? {
          machineId: o.machineId,
          billingType: o.billingType,
          duration: o.duration,
          gpuAmount: o.gpuAmount,
          voucherId: o.voucherId,
        }
      : null,
    o.discountLive,
  );
  let state: QuoteState = null;
  let figures: Figures = o.local;
  const q = quote.data;
  const current =
    q &&
    !quote.isPlaceholderData &&
    q.billingType === o.billingType &&
    q.gpuAmount === o.gpuAmount &&
    q.duration === (o.billingType === 'hourly' ? 1 : o.duration);
  if (quote.isFetching && !current) state = 'verifying';
  else if (q && current && !quote.isError) {
    if (quoteMatches(o.local, q)) state = 'verified';
    else {
      state = 'changed';
      figures = quoteFigures(q);
    }
  }
  return { state, figures, refetch: () => void quote.refetch() };
}
