import { describe, expect, it } from 'vitest';
import { attachmentName, exportUrl } from './api/export-bills';

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
