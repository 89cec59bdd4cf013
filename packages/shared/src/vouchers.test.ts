import { describe, expect, it } from 'vitest';
import {
  isVoucherExpiring,
  voucherConfigInputSchema,
  voucherDeduction,
  voucherExpiry,
  voucherRefusal,
  voucherStatus,
} from './vouchers.ts';

const NOW = new Date('2026-12-01T00:00:00Z');
const DAY = 86_400_000;
const facts = {
  remaining: 100_000,
  expiresAt: new Date(NOW.getTime() + DAY),
  regionId: 2,
  gpuModel: 'L40S',
  minOrderAmount: 50_000,
};
const order = { regionId: 2, gpuType: 'l40s', amount: 50_000 };

describe('voucher rules', () => {
  it('status: USED when nothing is left, EXPIRED from its expiry on, else UNUSED', () => {
    expect(voucherStatus(facts, NOW)).toBe('UNUSED');
    expect(voucherStatus({ ...facts, remaining: 0 }, NOW)).toBe('USED');
    expect(voucherStatus(facts, new Date(NOW.getTime() + DAY - 1))).toBe('UNUSED');
    expect(voucherStatus(facts, new Date(NOW.getTime() + DAY))).toBe('EXPIRED');
  });
  it('expiring within N days only while usable', () => {
    expect(isVoucherExpiring(facts, NOW, 1)).toBe(true);
    expect(isVoucherExpiring(facts, new Date(NOW.getTime() - 1), 1)).toBe(false);
    expect(isVoucherExpiring({ ...facts, remaining: 0 }, NOW, 7)).toBe(false);
  });
  it('deduction is min(remaining, order) floored to whole fen', () => {
    expect(voucherDeduction(100_000, 81_200)).toBe(81_200);
    expect(voucherDeduction(100_000, 81_190)).toBe(81_100);
    expect(voucherDeduction(30_055, 100_000)).toBe(30_000);
    expect(voucherDeduction(null, 100)).toBe(0);
  });
  it('refuses with a reason: used up, expired, region, GPU type, minimum', () => {
    expect(voucherRefusal(facts, order, NOW)).toBeNull();
    expect(voucherRefusal({ ...facts, remaining: 0 }, order, NOW)).toBe('代金券已用完');
    expect(voucherRefusal(facts, order, facts.expiresAt)).toBe('代金券已过期');
    expect(voucherRefusal(facts, { ...order, regionId: 3 }, NOW)).toBe('代金券不适用于该地区');
    expect(voucherRefusal(facts, { ...order, gpuType: 'A100' }, NOW)).toBe('代金券仅适用于 L40S');
    expect(voucherRefusal(facts, { ...order, amount: 49_999 }, NOW)).toBe('订单金额未达到代金券使用门槛');
    expect(
      voucherRefusal(
        { ...facts, regionId: null, gpuModel: null },
        { ...order, regionId: 9, gpuType: 'X' },
        NOW,
      ),
    ).toBeNull();
  });
  it('expiry: days from issue, capped by the end date', () => {
    const until = new Date(NOW.getTime() + 3 * DAY);
    expect(voucherExpiry({ validDays: 7, validUntil: until }, NOW)).toEqual(until);
    expect(voucherExpiry({ validDays: 2, validUntil: until }, NOW)).toEqual(
      new Date(NOW.getTime() + 2 * DAY),
    );
    expect(voucherExpiry({ validDays: null, validUntil: null }, NOW)).toBeNull();
  });
  it('config form: needs days or an end date; amounts of at most two decimals', () => {
    const base = { name: '新人券', faceAmount: 10 };
    expect(voucherConfigInputSchema.safeParse(base).success).toBe(false);
    expect(voucherConfigInputSchema.safeParse({ ...base, validDays: 7 }).success).toBe(true);
    const r = voucherConfigInputSchema.safeParse({ ...base, validDays: 7, faceAmount: 1.234 });
    expect(r.success ? '' : r.error.issues[0]?.message).toBe('面额最多两位小数');
  });
});
