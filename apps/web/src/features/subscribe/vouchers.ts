import { VOUCHER_EXPIRING_DAYS, VOUCHER_EXPIRING_DAYS_SUBSCRIBE } from '@gpu/shared/constants';

/** A voucher as SPEC.md §3 describes it (the voucher API is a later feature; read leniently). */
export interface Voucher {
  id: number;
  name: string;
  code: string;
  description: string;
  status: 'UNUSED' | 'USED' | 'EXPIRED';
  amount: number;
  remainingAmount: number;
  usedAmount: number;
  /** The order amount (after discount) it needs, yuan; 0 for none. */
  minOrderAmount: number;
  /** ISO time; null when it never expires. */
  expiresAt: string | null;
  regionId: number | null;
  regionName: string;
  gpuType: string;
}

export type VoucherFilter = 'all' | 'unused' | 'expiring';
export const VOUCHER_FILTERS: VoucherFilter[] = ['all', 'unused', 'expiring'];

const DAY_MS = 86_400_000;
/** SPEC.md §4/§9: "expiring" means within 7 days in the selector dialog. */
export const SELECTOR_EXPIRING_MS = VOUCHER_EXPIRING_DAYS * DAY_MS;
/** …and within 3 days in the subscribe page's own list. */
export const SUBSCRIBE_EXPIRING_MS = VOUCHER_EXPIRING_DAYS_SUBSCRIBE * DAY_MS;

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

function toVoucher(raw: unknown): Voucher | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const id = num(r.id);
  if (id === null) return null;
  const amount = num(r.amount) ?? 0;
  const remaining = num(r.remainingAmount) ?? amount;
  const status = str(r.status).toUpperCase();
  return {
    id,
    name: str(r.voucherName) || str(r.name),
    code: str(r.voucherCode),
    description: str(r.description),
    status: status === 'USED' || status === 'EXPIRED' ? status : 'UNUSED',
    amount,
    remainingAmount: remaining,
    usedAmount: num(r.usedAmount) ?? Math.max(0, amount - remaining),
    minOrderAmount: num(r.minOrderAmount) ?? 0,
    expiresAt: str(r.expiresAt) || null,
    regionId: num(r.regionId),
    regionName: str(r.regionName),
    gpuType: str(r.gpuType),
  };
}

/** The voucher list of GET /user/vouchers/available: an array or a page ({list|content|records}). */
export function normalizeVouchers(data: unknown): Voucher[] {
  const rows = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null
      ? ((data as Record<string, unknown>).list ??
        (data as Record<string, unknown>).content ??
        (data as Record<string, unknown>).records)
      : null;
  return Array.isArray(rows) ? rows.map(toVoucher).filter((v): v is Voucher => v !== null) : [];
}

const expiryMs = (v: Voucher) => (v.expiresAt ? Date.parse(v.expiresAt) : Number.POSITIVE_INFINITY);

/** SPEC.md §4: counts as expired once its expiry passed, whatever its status says. */
export const isExpired = (v: Voucher, now: number) => v.status === 'EXPIRED' || expiryMs(v) <= now;

export const isUnused = (v: Voucher, now: number) => v.status === 'UNUSED' && !isExpired(v, now);

export const isExpiring = (v: Voucher, now: number, withinMs: number) =>
  isUnused(v, now) && expiryMs(v) - now <= withinMs;

/**
 * Whether this order may use the voucher: unused, unexpired, money left, made for it, and (when
 * the order amount after discount is known) at least its minimum — the server's voucherRefusal.
 */
export function isApplicable(
  v: Voucher,
  now: number,
  order: { gpuType: string; regionId: number; amount?: number },
): boolean {
  if (!isUnused(v, now) || v.remainingAmount <= 0) return false;
  if (order.amount !== undefined && order.amount < v.minOrderAmount) return false;
  if (v.gpuType && v.gpuType.toLowerCase() !== order.gpuType.toLowerCase()) return false;
  if (v.regionId !== null && v.regionId !== order.regionId) return false;
  return true;
}

/** The dialog's list: status filter, then text search over name, GPU type and region (SPEC.md §2). */
export function filterVouchers(
  list: Voucher[],
  filter: VoucherFilter,
  search: string,
  now: number,
): Voucher[] {
  const q = search.trim().toLowerCase();
  return list.filter((v) => {
    if (filter === 'unused' && !isUnused(v, now)) return false;
    if (filter === 'expiring' && !isExpiring(v, now, SELECTOR_EXPIRING_MS)) return false;
    if (!q) return true;
    return [v.name, v.gpuType, v.regionName].some((field) => field.toLowerCase().includes(q));
  });
}
