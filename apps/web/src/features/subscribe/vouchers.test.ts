import { describe, expect, it } from 'vitest';
import {
  filterVouchers,
  isApplicable,
  isExpired,
  isExpiring,
  normalizeVouchers,
  SELECTOR_EXPIRING_MS,
  SUBSCRIBE_EXPIRING_MS,
} from './vouchers';

const NOW = Date.parse('2026-11-22T08:00:00Z');
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW + days * DAY).toISOString();

const raw = [
  {
    id: 1,
    voucherName: '新用户礼包',
    amount: 50,
    remainingAmount: 50,
    status: 'UNUSED',
    expiresAt: at(30),
    gpuType: '',
    regionName: '',
  },
  {
    id: 2,
    name: 'L40S 专享券',
    amount: 100,
    remainingAmount: 40,
    status: 'UNUSED',
    expiresAt: at(2),
    gpuType: 'L40S',
    regionId: 4,
    regionName: '内蒙古A区',
  },
  {
    id: 3,
    voucherName: '4090 体验券',
    amount: 20,
    remainingAmount: 20,
    status: 'UNUSED',
    expiresAt: at(5),
    gpuType: 'RTX 4090',
    regionId: 1,
    regionName: '安徽A区',
  },
  { id: 4, voucherName: '旧券', amount: 10, remainingAmount: 0, status: 'USED', expiresAt: at(10) },
  { id: 5, voucherName: '过期券', amount: 10, remainingAmount: 10, status: 'UNUSED', expiresAt: at(-1) },
  { bad: true },
];
const list = normalizeVouchers({ list: raw });
const byId = (id: number) => list.find((v) => v.id === id) ?? (undefined as never);

describe('vouchers', () => {
  it('reads arrays and pages, with either name field, and skips rows without an id', () => {
    expect(list.map((v) => v.id)).toEqual([1, 2, 3, 4, 5]);
    expect(byId(2).name).toBe('L40S 专享券');
    expect(normalizeVouchers(raw)).toHaveLength(5);
    expect(normalizeVouchers({ content: raw })).toHaveLength(5);
    expect(normalizeVouchers(null)).toEqual([]);
  });

  it('counts a passed expiry as expired, whatever the status says (SPEC.md §4)', () => {
    expect(isExpired(byId(5), NOW)).toBe(true);
    expect(isExpired(byId(1), NOW)).toBe(false);
  });

  it('is "expiring" within 7 days in the dialog and within 3 days on the page', () => {
    expect(isExpiring(byId(3), NOW, SELECTOR_EXPIRING_MS)).toBe(true);
    expect(isExpiring(byId(3), NOW, SUBSCRIBE_EXPIRING_MS)).toBe(false);
    expect(isExpiring(byId(2), NOW, SUBSCRIBE_EXPIRING_MS)).toBe(true);
    expect(isExpiring(byId(5), NOW, SELECTOR_EXPIRING_MS)).toBe(false);
  });

  it('filters by status, then searches name, GPU type and region', () => {
    const ids = (filter: 'all' | 'unused' | 'expiring', q = '') =>
      filterVouchers(list, filter, q, NOW).map((v) => v.id);
    expect(ids('all')).toEqual([1, 2, 3, 4, 5]);
    expect(ids('unused')).toEqual([1, 2, 3]);
    expect(ids('expiring')).toEqual([2, 3]);
    expect(ids('all', 'l40s')).toEqual([2]);
    expect(ids('all', '安徽')).toEqual([3]);
    expect(ids('unused', '礼包')).toEqual([1]);
    expect(ids('expiring', '礼包')).toEqual([]);
  });

  it('applies only unused, unexpired vouchers with money left, made for this GPU and region', () => {
    const l40s = { gpuType: 'L40S', regionId: 4 };
    expect(list.filter((v) => isApplicable(v, NOW, l40s)).map((v) => v.id)).toEqual([1, 2]);
    expect(isApplicable(byId(2), NOW, { gpuType: 'L40S', regionId: 1 })).toBe(false);
  });
});

describe('isApplicable and the voucher minimum', () => {
  const NOW = Date.parse('2026-12-01T00:00:00Z');
  const [v] = normalizeVouchers([
    {
      id: 1,
      amount: 10,
      remainingAmount: 10,
      minOrderAmount: 50,
      expiresAt: '2027-01-01T00:00:00Z',
      status: 'UNUSED',
    },
  ]);
  it('refuses an order below the minimum, accepts one at it, ignores it when the amount is unknown', () => {
    if (!v) throw new Error('not normalized');
    const order = { gpuType: 'L40S', regionId: 1 };
    expect(isApplicable(v, NOW, { ...order, amount: 49.99 })).toBe(false);
    expect(isApplicable(v, NOW, { ...order, amount: 50 })).toBe(true);
    expect(isApplicable(v, NOW, order)).toBe(true);
  });
});
