/**
 * The register screen's rules of SPEC.md §4 as pure functions: the phone availability states,
 * when the send-code button may be used and when the register button is enabled.
 */

/** `idle`: no valid phone typed yet, so nothing to check. */
export type PhoneAvailability = 'idle' | 'checking' | 'available' | 'taken' | 'unknown';

export interface AvailabilityInput {
  /** The typed phone passes the phone rule of SPEC.md §5. */
  phoneValid: boolean;
  /** The typed phone has not settled yet (still being typed, check not started). */
  debouncing: boolean;
  /** The check of this phone is running. */
  fetching: boolean;
  /** The last check of this phone failed. */
  failed: boolean;
  /** The answer of the last check of this phone (data.available), if any. */
  available: boolean | undefined;
}

export function phoneAvailability(input: AvailabilityInput): PhoneAvailability {
  if (!input.phoneValid) return 'idle';
  if (input.debouncing || input.fetching) return 'checking';
  if (input.failed) return 'unknown';
  if (input.available === true) return 'available';
  if (input.available === false) return 'taken';
  return 'checking';
}

/** Send code: phone valid and available, no cooldown running, not already sending. */
export const canSendRegisterCode = (s: {
  availability: PhoneAvailability;
  cooldownActive: boolean;
  sending: boolean;
}) => s.availability === 'available' && !s.cooldownActive && !s.sending;

export interface RegisterDraft {
  phone?: string;
  verificationCode?: string;
  password?: string;
  confirmPassword?: string;
  agreement?: boolean;
}

const filled = (value: string | undefined) => typeof value === 'string' && value.trim() !== '';

/**
 * Register button: phone, code, password, confirmation and agreement filled, the phone
 * available and the passwords equal.
 */
export const canRegister = (draft: RegisterDraft, availability: PhoneAvailability) =>
  filled(draft.phone) &&
  filled(draft.verificationCode) &&
  filled(draft.password) &&
  filled(draft.confirmPassword) &&
  draft.agreement === true &&
  availability === 'available' &&
  draft.password === draft.confirmPassword;

/** The send-code button's label. */
export function sendCodeLabel(
  s: { sending: boolean; remaining: number; sentBefore: boolean },
  texts: { send: string; sending: string; cooldown: (s: number) => string; resend: string },
): string {
  if (s.sending) return texts.sending;
  if (s.remaining > 0) return texts.cooldown(s.remaining);
  return s.sentBefore ? texts.resend : texts.send;
}
