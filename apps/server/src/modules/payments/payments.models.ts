import { PAYMENT_COUNTDOWN_S, type PaymentStatus, type RechargeOrderStatus } from '@gpu/shared';
import { addDays, shanghaiDayStart } from '@gpu/shared/time';
import { DOC_PREFIXES, newDocNo } from '../../platform/doc-no.ts';

/** An order unpaid this long after creation closes (SPEC.md §9: the 600 s countdown). */
export const ORDER_TTL_MS = PAYMENT_COUNTDOWN_S * 1000;
/** Per-user limits on order creation, counted in the database so they hold across replicas. */
export const MAX_PENDING_ORDERS = 10;
export const MAX_ORDERS_PER_HOUR = 30;
/** A replica asks the provider about one order at most this often (status polls come every second). */
export const PROVIDER_QUERY_INTERVAL_MS = 5_000;
/** The reconcile task leaves fresh orders to the notify for this long. */
export const RECONCILE_MIN_AGE_MS = 10_000;

/** `RC` + China time yyyyMMddHHmmss + 12 random hex: unique, unguessable, valid as Alipay out_trade_no. */
export const newOrderNo = (now: Date): string => newDocNo(DOC_PREFIXES.recharge, now);

/** What the status poll answers: anything not paid and not pending is FAIL. */
export function toPaymentStatus(status: RechargeOrderStatus): PaymentStatus {
  if (status === 'SUCCESS') return 'SUCCESS';
  if (status === 'PENDING') return 'PENDING';
  return 'FAIL';
}

export const isExpired = (order: { expiresAt: Date }, now: Date) =>
  now.getTime() >= order.expiresAt.getTime();

/** Units (multiples of 0.01 yuan) to the provider's yuan string, e.g. 2_000_000 → "200.00". */
export function unitsToYuanString(units: number): string {
  if (!Number.isSafeInteger(units) || units < 0 || units % 100 !== 0) {
    throw new RangeError(`not a whole number of cents: ${units}`);
  }
  const cents = units / 100;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** A provider's yuan string ("200", "200.5", "200.00") to units without floating point; null if malformed. */
export function yuanStringToUnits(s: string | undefined | null): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(s?.trim() ?? '');
  if (!m) return null;
  return Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(2, '0')) * 100;
}

/**
 * A list filter's time bounds: a day (`2026-11-22`) means that whole day in China time,
 * an ISO time means that instant. Both ends inclusive.
 */
export function dateBounds(startDate?: string, endDate?: string): { from?: Date; toExclusive?: Date } {
  const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
  return {
    from: startDate ? (isDay(startDate) ? shanghaiDayStart(startDate) : new Date(startDate)) : undefined,
    toExclusive: endDate
      ? isDay(endDate)
        ? shanghaiDayStart(addDays(endDate, 1))
        : new Date(new Date(endDate).getTime() + 1)
      : undefined,
  };
}
