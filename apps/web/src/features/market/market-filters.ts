import {
  BILLING_TYPES,
  type BillingType,
  GPU_COUNT_MAX,
  GPU_COUNT_MIN,
  MARKET_DEFAULT_PAGE_SIZE,
  MARKET_PAGE_SIZES,
} from '@gpu/shared/constants';

/**
 * The market's filters (SPEC.md §2, §5) and their place in the URL query, so a refresh or the
 * back button keeps them. Query names are the API's (GET /api/gpu/market); defaults are left
 * out of the URL, and a value the API would refuse is dropped rather than sent.
 */
export interface MarketFilters {
  billingType: BillingType;
  regionId?: number;
  gpuModel?: string;
  gpuCount?: number;
  /** Case-insensitive search over host names. */
  keyword?: string;
  page: number;
  size: number;
}

export const DEFAULT_FILTERS: MarketFilters = {
  billingType: 'hourly',
  page: 1,
  size: MARKET_DEFAULT_PAGE_SIZE,
};

const KEYWORD_MAX = 64;
const PAGE_MAX = 10_000;

function intParam(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

function textParam(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name)?.trim();
  return value ? value.slice(0, KEYWORD_MAX) : undefined;
}

export function filtersFromSearch(search: URLSearchParams | string): MarketFilters {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const billing = params.get('billingType');
  const size = intParam(params, 'size', 1, Number.MAX_SAFE_INTEGER);
  return {
    billingType: (BILLING_TYPES as readonly string[]).includes(billing ?? '')
      ? (billing as BillingType)
      : DEFAULT_FILTERS.billingType,
    regionId: intParam(params, 'regionId', 1, 2_147_483_647),
    gpuModel: textParam(params, 'gpuModel'),
    gpuCount: intParam(params, 'gpuCount', GPU_COUNT_MIN, GPU_COUNT_MAX),
    keyword: textParam(params, 'keyword'),
    page: intParam(params, 'page', 1, PAGE_MAX) ?? DEFAULT_FILTERS.page,
    size:
      size !== undefined && (MARKET_PAGE_SIZES as readonly number[]).includes(size)
        ? size
        : DEFAULT_FILTERS.size,
  };
}

/** The URL query of `filters`, in a fixed order, without the defaults. */
export function filtersToSearch(filters: MarketFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.billingType !== DEFAULT_FILTERS.billingType) params.set('billingType', filters.billingType);
  if (filters.regionId !== undefined) params.set('regionId', String(filters.regionId));
  if (filters.gpuModel) params.set('gpuModel', filters.gpuModel);
  if (filters.gpuCount !== undefined) params.set('gpuCount', String(filters.gpuCount));
  if (filters.keyword) params.set('keyword', filters.keyword);
  if (filters.page !== DEFAULT_FILTERS.page) params.set('page', String(filters.page));
  if (filters.size !== DEFAULT_FILTERS.size) params.set('size', String(filters.size));
  return params;
}

/**
 * Applies a change. A change of anything but the page (a filter or the page size) goes back
 * to page 1: the old page may not exist in the new result.
 */
export function changeFilters(filters: MarketFilters, patch: Partial<MarketFilters>): MarketFilters {
  const next = { ...filters, ...patch };
  const keys = Object.keys(patch) as (keyof MarketFilters)[];
  if (keys.some((key) => key !== 'page' && patch[key] !== filters[key])) next.page = DEFAULT_FILTERS.page;
  return next;
}

/** The API query of GET /api/gpu/market for `filters` (every field, defaults included). */
export function marketQuery(filters: MarketFilters) {
  return {
    page: filters.page,
    size: filters.size,
    billingType: filters.billingType,
    regionId: filters.regionId,
    gpuModel: filters.gpuModel,
    gpuCount: filters.gpuCount,
    keyword: filters.keyword,
  };
}

export const hasNarrowingFilters = (f: MarketFilters) =>
  f.regionId !== undefined || Boolean(f.gpuModel) || f.gpuCount !== undefined || Boolean(f.keyword);
