import { describe, expect, it } from 'vitest';
import {
  changeOrderFilters,
  hasOrderFilters,
  orderFiltersFromSearch,
  orderFiltersToSearch,
} from './order-filters';

describe('recharge order filters', () => {
  it('reads the address bar, dropping bad values', () => {
    expect(orderFiltersFromSearch(new URLSearchParams(''))).toEqual({
      page: 1,
      size: 10,
      status: undefined,
      startDate: undefined,
      endDate: undefined,
    });
    expect(
      orderFiltersFromSearch(
        new URLSearchParams('page=3&size=20&status=SUCCESS&startDate=2026-01-01&endDate=2026-01-31'),
      ),
    ).toEqual({ page: 3, size: 20, status: 'SUCCESS', startDate: '2026-01-01', endDate: '2026-01-31' });
    expect(
      orderFiltersFromSearch(new URLSearchParams('page=-1&size=7&status=PAID&startDate=yesterday')),
    ).toEqual({ page: 1, size: 10, status: undefined, startDate: undefined, endDate: undefined });
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(orderFiltersToSearch({ page: 1, size: 10 }).toString()).toBe('');
    const f = {
      page: 2,
      size: 50,
      status: 'PENDING' as const,
      startDate: '2026-02-01',
      endDate: '2026-02-03',
    };
    expect(orderFiltersFromSearch(orderFiltersToSearch(f))).toEqual(f);
  });

  it('goes back to page 1 when a filter changes, not when the page does', () => {
    const f = { page: 4, size: 10 };
    expect(changeOrderFilters(f, { status: 'FAIL' }).page).toBe(1);
    expect(changeOrderFilters(f, { page: 5 }).page).toBe(5);
    expect(hasOrderFilters(f)).toBe(false);
    expect(hasOrderFilters({ ...f, endDate: '2026-01-01' })).toBe(true);
  });
});
