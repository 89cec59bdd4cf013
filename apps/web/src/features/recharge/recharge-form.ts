import { type PaymentType, rechargeAmountError } from '@gpu/shared/payments';

/** The amount form of SPEC.md §2/§5: a preset or the other-amount text, and a payment method. */
export interface RechargeFormState {
  preset: number | null;
  /** The other-amount field as typed (digits only, see sanitizeRechargeInput). */
  custom: string;
  method: PaymentType | null;
}

export const INITIAL_FORM: RechargeFormState = { preset: null, custom: '', method: 'alipay' };

/** The amount the form asks for: the preset, else the typed number, else 0. */
export function formAmount(form: RechargeFormState): number {
  if (form.preset !== null) return form.preset;
  const n = Number(form.custom);
  return form.custom.trim() === '' || !Number.isFinite(n) ? 0 : n;
}

/** The other-amount field's message (SPEC.md §8), or null; a chosen preset has none. */
export function customAmountError(form: RechargeFormState): string | null {
  return form.preset === null ? rechargeAmountError(form.custom) : null;
}

/** SPEC.md §5: the recharge button is disabled when the amount is 0 or no method is chosen. */
export const canSubmit = (form: RechargeFormState) => formAmount(form) !== 0 && form.method !== null;

/** Submitting with an invalid field warns to complete the information. */
export const isComplete = (form: RechargeFormState) => canSubmit(form) && customAmountError(form) === null;
