import {
  unitsToYuan,
  type VoucherConfigView,
  type VoucherFacts,
  type VoucherView,
  voucherStatus,
} from '@gpu/shared';
import type { VoucherConfigRow, VoucherRow, VoucherWithRegion } from './vouchers.repository.ts';

export const factsOf = (v: VoucherRow): VoucherFacts => ({
  remaining: v.remaining,
  expiresAt: v.expiresAt,
  regionId: v.regionId,
  gpuModel: v.gpuModel,
  minOrderAmount: v.minOrderAmount,
});

/** SPEC.md §3 voucher, in yuan; status computed at `now`. */
export function toVoucherView(v: VoucherWithRegion, now: Date): VoucherView {
  return {
    id: v.id,
    name: v.name,
    voucherName: v.name,
    voucherCode: v.code,
    description: v.description,
    status: voucherStatus(v, now),
    amount: unitsToYuan(v.amount),
    remainingAmount: unitsToYuan(v.remaining),
    usedAmount: unitsToYuan(v.amount - v.remaining),
    minOrderAmount: unitsToYuan(v.minOrderAmount),
    expiresAt: v.expiresAt.toISOString(),
    regionId: v.regionId,
    regionName: v.regionName ?? '',
    gpuType: v.gpuModel ?? '',
    createdAt: v.createdAt.toISOString(),
  };
}

export function toConfigView(
  c: VoucherConfigRow & { regionName: string | null; issuedCount: number },
): VoucherConfigView {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    faceAmount: unitsToYuan(c.faceAmount),
    validDays: c.validDays,
    validUntil: c.validUntil?.toISOString() ?? null,
    regionId: c.regionId,
    regionName: c.regionName,
    gpuType: c.gpuModel,
    minOrderAmount: unitsToYuan(c.minOrderAmount),
    perUserLimit: c.perUserLimit,
    enabled: c.enabled,
    archived: c.archived,
    issuedCount: c.issuedCount,
    createdAt: c.createdAt.toISOString(),
  };
}
