import { RECHARGE_ORDER_STATUSES, type RechargeOrderStatus } from '@gpu/shared/labels';
import type { RechargeOrderFilters } from './api/get-recharge-orders';

export const ORDER_PAGE_SIZES = [10, 20, 50] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const isStatus = (v: string | null): v is RechargeOrderStatus =>
  v !== null && (RECHARGE_ORDER_STATUSES as readonly string[]).includes(v);

/** The list's filters from the address bar (?page&size&status&startDate&endDate); bad values dropped. */
export function orderFiltersFromSearch(params: URLSearchParams): RechargeOrderFilters {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const status = params.get('status');
  const startDate = params.get('startDate') ?? '';
  const endDate = params.get('endDate') ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    size: (ORDER_PAGE_SIZES as readonly number[]).includes(size) ? size : ORDER_PAGE_SIZES[0],
    status: isStatus(status) ? status : undefined,
    startDate: DAY.test(startDate) ? startDate : undefined,
    endDate: DAY.test(endDate) ? endDate : undefined,
  };
}

/** The filters as a query string; defaults left out. */
export function orderFiltersToSearch(filters: RechargeOrderFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.startDate) params.set('startDate', filters.startDate);
  if (filters.endDate) params.set('endDate', filters.endDate);
  if (filters.page > 1) params.set('page', String(filters.page));
  if (filters.size !== ORDER_PAGE_SIZES[0]) params.set('size', String(filters.size));
  return params;
}

/** A change of status, dates or page size starts again at page 1. */
export function changeOrderFilters(
  current: RechargeOrderFilters,
  patch: Partial<RechargeOrderFilters>,
): RechargeOrderFilters {
  const next = { ...current, ...patch };
  if (!('page' in patch)) next.page = 1;
  return next;
}

export const hasOrderFilters = (f: RechargeOrderFilters) => Boolean(f.status || f.startDate || f.endDate);

/** Tag colour of each order status. */
export const ORDER_STATUS_COLORS: Record<RechargeOrderStatus, string> = {
  PENDING: 'processing',
  SUCCESS: 'success',
  FAIL: 'error',
  CLOSED: 'default',
};
