import { describe, expect, it } from 'vitest';
import { filterOptions, filterRows } from './market.models.ts';
import type { MarketRow } from './market.repository.ts';

const row = (over: Partial<MarketRow>): MarketRow =>
  ({
    regionId: 1,
    regionName: '安徽A区',
    overseas: false,
    gpuModel: 'RTX 4090',
    hostName: 'h1',
    gpuNum: 8,
    gpuIdleNum: 8,
    ...over,
  }) as MarketRow;

describe('market filter choices', () => {
  it('offers only models of machines the market shows (an idle GPU at least)', () => {
    const rows = [
      row({ gpuModel: 'RTX 4090', gpuIdleNum: 2 }),
      row({ gpuModel: 'A100', gpuIdleNum: 0, hostName: 'full' }),
      row({ gpuModel: 'H100', gpuIdleNum: 1, gpuNum: 16 }),
    ];
    const { gpuModels } = filterOptions(rows);
    expect(gpuModels).toEqual(['H100', 'RTX 4090']);
    // Every offered model finds at least one machine.
    for (const gpuModel of gpuModels) {
      expect(
        filterRows(rows, { gpuModel, page: 1, size: 12, billingType: 'hourly' } as never),
      ).not.toHaveLength(0);
    }
  });

  it('puts overseas regions last, offering them even without a machine (issue 14)', () => {
    const us = { id: 9, name: '海外区（美国）', overseas: true };
    const eu = { id: 5, name: '海外区（欧洲）', overseas: true };
    const rows = [
      row({ regionId: 1, regionName: '安徽A区' }),
      // An overseas machine ahead of a domestic one (a lower sort order) still comes last.
      row({ regionId: 9, regionName: '海外区（美国）', overseas: true }),
      row({ regionId: 2, regionName: '北京A区' }),
    ];
    expect(filterOptions(rows, [us, eu]).regions).toEqual([
      { id: 1, name: '安徽A区', overseas: false },
      { id: 2, name: '北京A区', overseas: false },
      us,
      eu,
    ]);
    expect(
      filterOptions(
        rows.filter((r) => !r.overseas),
        [eu],
      ).regions.map((r) => r.id),
    ).toEqual([1, 2, 5]);
  });
});
