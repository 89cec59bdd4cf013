import type { Bill } from '@gpu/shared/bills';
import type { BillingType } from '@gpu/shared/constants';
import type { Page } from '@gpu/shared/envelope';
import type { BillKind } from '@gpu/shared/labels';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { billKeys } from '../../billing';

/** Filters of the expense details (SPEC.md §7 GET /v2/billing/records); days in Asia/Shanghai. */
export interface BillFilters {
  billingType?: BillingType;
  kind?: BillKind;
  instanceId?: number;
  /** One order or bill by its number (OD…/BL…). */
  recordNo?: string;
  /** YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
}

export const fetchBills = (
  q: Omit<BillFilters, 'kind'> & { kind?: string; page: number; size: number },
  signal?: AbortSignal,
) => api.get<Page<Bill>>('/v2/billing/records', { query: { ...q }, signal });

/** Expense details, one page. */
export const useBills = (filters: BillFilters, page: number, size: number) =>
  useQuery({
    queryKey: billKeys.records({ ...filters, page, size }),
    queryFn: ({ signal }) => fetchBills({ ...filters, page, size }, signal),
    placeholderData: keepPreviousData,
  });

/**
 * One page over several kinds at once: the server takes `kind=a,b` (issue 10), so the
 * paging, total and order are the server's own.
 */
export const fetchBillsOfKinds = (
  kinds: readonly BillKind[],
  filters: Omit<BillFilters, 'kind'>,
  page: number,
  size: number,
  signal?: AbortSignal,
): Promise<Page<Bill>> => fetchBills({ ...filters, kind: kinds.join(','), page, size }, signal);

export const useBillsOfKinds = (
  kinds: readonly BillKind[],
  filters: Omit<BillFilters, 'kind'>,
  page: number,
  size: number,
) =>
  useQuery({
    queryKey: billKeys.records({ ...filters, kinds, page, size }),
    queryFn: ({ signal }) => fetchBillsOfKinds(kinds, filters, page, size, signal),
    placeholderData: keepPreviousData,
  });
