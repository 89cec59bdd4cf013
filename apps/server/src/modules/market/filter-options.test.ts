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
});
