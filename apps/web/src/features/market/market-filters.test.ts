import { describe, expect, it } from 'vitest';
import {
  changeFilters,
  DEFAULT_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  hasNarrowingFilters,
  type MarketFilters,
  marketQuery,
} from './market-filters';

describe('URL ⇄ market filters', () => {
  it('reads the defaults from an empty query and writes none back', () => {
    expect(filtersFromSearch('')).toEqual({ ...DEFAULT_FILTERS });
    expect(filtersToSearch(DEFAULT_FILTERS).toString()).toBe('');
  });

  it('reads every filter', () => {
    expect(
      filtersFromSearch(
        '?billingType=weekly&regionId=3&gpuModel=RTX%204090&gpuCount=4&keyword=ah-a&page=2&size=24',
      ),
    ).toEqual({
      billingType: 'weekly',
      regionId: 3,
      gpuModel: 'RTX 4090',
      gpuCount: 4,
      keyword: 'ah-a',
      page: 2,
      size: 24,
    });
  });

  it('round-trips every combination it writes', () => {
    const samples: MarketFilters[] = [
      { billingType: 'monthly', page: 1, size: 48 },
      { billingType: 'hourly', regionId: 1, gpuModel: 'A100 80GB', page: 3, size: 12 },
      { billingType: 'daily', gpuCount: 8, keyword: 'GD-B', page: 1, size: 36 },
      { billingType: 'hourly', gpuModel: '名字 & = ?', keyword: '#x', page: 10, size: 12 },
    ];
    for (const f of samples) expect(filtersFromSearch(filtersToSearch(f))).toEqual(f);
    expect(filtersToSearch(samples[1] as MarketFilters).toString()).toBe(
      'regionId=1&gpuModel=A100+80GB&page=3',
    );
  });

  it('drops values the API would refuse instead of sending them', () => {
    expect(
      filtersFromSearch('?billingType=yearly&regionId=-1&gpuCount=9&page=0&size=13&gpuModel=%20%20&keyword='),
    ).toEqual({ ...DEFAULT_FILTERS });
    expect(filtersFromSearch('?gpuCount=0').gpuCount).toBeUndefined();
    expect(filtersFromSearch('?gpuCount=1.5').gpuCount).toBeUndefined();
    expect(filtersFromSearch('?gpuCount=1').gpuCount).toBe(1);
    expect(filtersFromSearch('?regionId=abc').regionId).toBeUndefined();
    expect(filtersFromSearch('?page=99999').page).toBe(1);
    for (const size of [12, 24, 36, 48]) expect(filtersFromSearch(`?size=${size}`).size).toBe(size);
    expect(filtersFromSearch(`?keyword=${'x'.repeat(80)}`).keyword).toHaveLength(64);
    expect(filtersFromSearch('?keyword=%20ah%20').keyword).toBe('ah');
  });

  it('goes back to page 1 when a filter or the page size changes, not when only the page does', () => {
    const on3: MarketFilters = { ...DEFAULT_FILTERS, page: 3 };
    expect(changeFilters(on3, { page: 4 }).page).toBe(4);
    expect(changeFilters(on3, { regionId: 2 })).toMatchObject({ regionId: 2, page: 1 });
    expect(changeFilters(on3, { billingType: 'daily' }).page).toBe(1);
    expect(changeFilters(on3, { page: 3, size: 24 })).toMatchObject({ page: 1, size: 24 });
    // antd's pager reports both; an unchanged size keeps the chosen page
    expect(changeFilters(on3, { page: 2, size: 12 }).page).toBe(2);
    expect(changeFilters({ ...on3, gpuModel: 'L40S' }, { gpuModel: undefined })).toMatchObject({
      gpuModel: undefined,
      page: 1,
    });
  });

  it('sends every field to the API, defaults included', () => {
    expect(marketQuery(filtersFromSearch('?gpuCount=2'))).toEqual({
      page: 1,
      size: 12,
      billingType: 'hourly',
      regionId: undefined,
      gpuModel: undefined,
      gpuCount: 2,
      keyword: undefined,
    });
  });

  it('knows when the result is narrowed (the reset link shows)', () => {
    expect(hasNarrowingFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasNarrowingFilters({ ...DEFAULT_FILTERS, billingType: 'monthly', page: 2 })).toBe(false);
    expect(hasNarrowingFilters({ ...DEFAULT_FILTERS, keyword: 'a' })).toBe(true);
    expect(hasNarrowingFilters({ ...DEFAULT_FILTERS, gpuCount: 1 })).toBe(true);
  });
});
