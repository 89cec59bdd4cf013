import { describe, expect, it } from 'vitest';
import { attachmentName, exportUrl } from './api/export-bills';
import { mergePages } from './merge-pages';

const ids = (...n: number[]) => n.map((id) => ({ id }));

describe('orders over several kinds', () => {
  const heads = [
    { list: ids(10, 7, 3), total: 3 },
    { list: ids(9, 8), total: 2 },
    { list: ids(12, 1), total: 2 },
  ];
  it('merges newest first and pages the union', () => {
    expect(mergePages(heads, 1, 3)).toEqual({ list: ids(12, 10, 9), total: 7, page: 1, size: 3 });
    expect(mergePages(heads, 2, 3).list).toEqual(ids(8, 7, 3));
    expect(mergePages(heads, 3, 3).list).toEqual(ids(1));
    expect(mergePages(heads, 4, 3).list).toEqual([]);
  });
});

describe('export', () => {
  it('builds the URL with the current filters', () => {
    expect(exportUrl('xlsx', { kind: 'metering', from: '2025-01-01', to: '2025-01-31', instanceId: 3 })).toBe(
      '/api/v2/billing/export?format=xlsx&kind=metering&from=2025-01-01&to=2025-01-31&instanceId=3',
    );
    expect(exportUrl('csv', { billingType: undefined })).toBe('/api/v2/billing/export?format=csv');
  });
  it('reads the file name of the attachment', () => {
    const name = `费用明细-2025-01-31.xlsx`;
    expect(attachmentName(`attachment; filename*=UTF-8''${encodeURIComponent(name)}`, 'x')).toBe(name);
    expect(attachmentName('attachment; filename="bills.csv"', 'x')).toBe('bills.csv');
    expect(attachmentName(null, 'fallback.csv')).toBe('fallback.csv');
  });
});
