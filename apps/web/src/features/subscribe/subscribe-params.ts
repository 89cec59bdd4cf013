import { BILLING_TYPES, type BillingType, DURATION_LIMITS } from '@gpu/shared/constants';

/** The billing mode of the URL (SPEC.md §2); anything else is pay-as-you-go. */
export function billingTypeOf(raw: string | null): BillingType {
  return (BILLING_TYPES as readonly string[]).includes(raw ?? '') ? (raw as BillingType) : 'hourly';
}

/** SPEC.md §5: daily 1–6, weekly 1–3, monthly 1–3; pay-as-you-go has no duration (1). */
export function durationBounds(billingType: BillingType): { min: number; max: number } {
  return billingType === 'hourly' ? { min: 1, max: 1 } : DURATION_LIMITS[billingType];
}

export function clampDuration(duration: number, billingType: BillingType): number {
  const { min, max } = durationBounds(billingType);
  const n = Number.isFinite(duration) ? Math.trunc(duration) : min;
  return Math.min(max, Math.max(min, n));
}
