import type { VoucherView } from '@gpu/shared/vouchers';
import { describe, expect, it } from 'vitest';
import { canUse, isExpiringCard, marketLinkFor, statusNow } from './voucher-rules';

const NOW = Date.parse('2026-12-01T00:00:00Z');
const DAY = 86_400_000;
const voucher = (p: Partial<VoucherView>): VoucherView => ({
  id: 1,
  name: 'v',
  voucherName: 'v',
  voucherCode: 'VX',
  description: '',
  status: 'UNUSED',
  amount: 10,
  remainingAmount: 10,
  usedAmount: 0,
  minOrderAmount: 0,
  expiresAt: new Date(NOW + 30 * DAY).toISOString(),
  regionId: null,
  regionName: '',
  gpuType: '',
  createdAt: new Date(NOW).toISOString(),
  ...p,
});

describe('voucher card rules', () => {
  it('marks expiring within 7 days, only while usable', () => {
    expect(isExpiringCard(voucher({ expiresAt: new Date(NOW + 7 * DAY).toISOString() }), NOW)).toBe(true);
    expect(isExpiringCard(voucher({ expiresAt: new Date(NOW + 7 * DAY + 1).toISOString() }), NOW)).toBe(
      false,
    );
    expect(
      isExpiringCard(voucher({ status: 'USED', expiresAt: new Date(NOW + DAY).toISOString() }), NOW),
    ).toBe(false);
  });
  it('treats a passed expiry as expired and unusable', () => {
    const v = voucher({ expiresAt: new Date(NOW).toISOString() });
    expect(statusNow(v, NOW)).toBe('EXPIRED');
    expect(canUse(v, NOW)).toBe(false);
    expect(canUse(voucher({}), NOW)).toBe(true);
  });
  it('sends Use to the market with the scope applied', () => {
    expect(marketLinkFor({ regionId: 3, gpuType: 'L40S' })).toBe('/market?regionId=3&gpuModel=L40S');
    expect(marketLinkFor({ regionId: null, gpuType: '' })).toBe('/market');
  });
});
