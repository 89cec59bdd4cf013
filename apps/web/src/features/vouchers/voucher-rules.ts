import { VOUCHER_EXPIRING_DAYS } from '@gpu/shared/constants';
import type { VoucherView } from '@gpu/shared/vouchers';
import { PATHS } from '../../lib/routing/paths';

const DAY_MS = 86_400_000;

/** SPEC.md §4: counts as expired once its expiry passed, whatever the list said when loaded. */
export const isPastExpiry = (v: Pick<VoucherView, 'expiresAt'>, now: number) =>
  Date.parse(v.expiresAt) <= now;

/** The status to show now (a list loaded before the expiry shows EXPIRED once it passes). */
export const statusNow = (v: VoucherView, now: number): VoucherView['status'] =>
  v.status === 'UNUSED' && isPastExpiry(v, now) ? 'EXPIRED' : v.status;

/** Only unused, unexpired vouchers can be used (SPEC.md §4). */
export const canUse = (v: VoucherView, now: number) => statusNow(v, now) === 'UNUSED';

/** 'Expiring': usable and expiring within 7 days on the card (SPEC.md §4, §9). */
export const isExpiringCard = (v: VoucherView, now: number) =>
  canUse(v, now) && Date.parse(v.expiresAt) - now <= VOUCHER_EXPIRING_DAYS * DAY_MS;

/** The market with the voucher's scope applied as filters. */
export function marketLinkFor(v: Pick<VoucherView, 'regionId' | 'gpuType'>): string {
  const q = new URLSearchParams();
  if (v.regionId !== null) q.set('regionId', String(v.regionId));
  if (v.gpuType) q.set('gpuModel', v.gpuType);
  const s = q.toString();
  return s ? `${PATHS.market}?${s}` : PATHS.market;
}
