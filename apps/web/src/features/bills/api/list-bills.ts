import type { Bill, BillingType, BillKind, Page } from '@gpu/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { mergePages } from '../merge-pages';

/** Filters of the expense details (SPEC.md §7 GET /v2/billing/records); days in Asia/Shanghai. */
export interface BillFilters {
  billingType?: BillingType;
  kind?: BillKind;
  instanceId?: number;
  /** YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
}

export const billKeys = {
  all: ['bills'] as const,
  records: (q: object) => [...billKeys.all, 'records', q] as const,
  monitor: () => [...billKeys.all, 'monitor'] as const,
  daily: (days: number) => [...billKeys.all, 'daily', days] as const,
};

/** Largest page the server answers. */
const MAX_SIZE = 100;

export const fetchBills = (q: BillFilters & { page: number; size: number }, signal?: AbortSignal) =>
  api.get<Page<Bill>>('/v2/billing/records', { query: { ...q }, signal });

/** Expense details, one page. */
export const useBills = (filters: BillFilters, page: number, size: number) =>
  useQuery({
    queryKey: billKeys.records({ ...filters, page, size }),
    queryFn: ({ signal }) => fetchBills({ ...filters, page, size }, signal),
    placeholderData: keepPreviousData,
  });

/** The first `count` records of one filter, newest first, in pages of at most 100. */
async function fetchHead(filters: BillFilters, count: number, signal?: AbortSignal) {
  const first = await fetchBills({ ...filters, page: 1, size: Math.min(count, MAX_SIZE) }, signal);
  const list = [...first.list];
  for (let page = 2; list.length < Math.min(count, first.total); page++) {
    const next = await fetchBills({ ...filters, page, size: MAX_SIZE }, signal);
    if (next.list.length === 0) break;
    list.push(...next.list);
  }
  return { list: list.slice(0, count), total: first.total };
}

/**
 * One page over several kinds at once (the records call filters on a single kind): the head
 * of each kind up to the end of the page, merged newest first (by id, as the server orders).
 */
export async function fetchBillsOfKinds(
  kinds: readonly BillKind[],
  filters: Omit<BillFilters, 'kind'>,
  page: number,
  size: number,
  signal?: AbortSignal,
): Promise<Page<Bill>> {
  const [only] = kinds;
  if (kinds.length === 1 && only) return fetchBills({ ...filters, kind: only, page, size }, signal);
  const heads = await Promise.all(kinds.map((kind) => fetchHead({ ...filters, kind }, page * size, signal)));
  return mergePages(heads, page, size);
}

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
