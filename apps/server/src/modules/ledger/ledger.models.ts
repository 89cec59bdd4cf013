import type { LedgerKind } from './ledger.tables.ts';

/** A balance in 0.0001 yuan units. */
export interface Balances {
  available: number;
  frozen: number;
}

/** One change of an account: signed units moved in `available` and in `frozen`. */
export interface Movement {
  kind: LedgerKind;
  amount: number;
  frozenAmount?: number;
  /** Only pay-as-you-go metering may take `available` below zero (DESIGN §5). */
  allowNegative?: boolean;
}

export type PostingOutcome =
  | { ok: true; balances: Balances }
  | { ok: false; reason: 'insufficient_balance' | 'insufficient_frozen' };

/** Throws on a movement no caller should ever build (a bug, not a user error). */
export function assertValidMovement(m: Movement): void {
  const frozen = m.frozenAmount ?? 0;
  if (!Number.isSafeInteger(m.amount) || !Number.isSafeInteger(frozen)) {
    throw new TypeError(`ledger amounts must be integer units: ${m.amount} / ${frozen}`);
  }
  if (m.amount === 0 && frozen === 0) throw new TypeError('ledger movement of zero');
  if (m.kind === 'recharge' && (m.amount <= 0 || frozen !== 0)) {
    throw new TypeError('a recharge only adds to available');
  }
}

/**
 * The balances after a movement, or why it may not happen: a debit may not take `available`
 * below zero unless `allowNegative`; `frozen` never goes below zero. A credit is always allowed,
 * even into an account in arrears.
 */
export function applyMovement(before: Balances, m: Movement): PostingOutcome {
  const available = before.available + m.amount;
  const frozen = before.frozen + (m.frozenAmount ?? 0);
  if (m.amount < 0 && available < 0 && !m.allowNegative) return { ok: false, reason: 'insufficient_balance' };
  if (frozen < 0) return { ok: false, reason: 'insufficient_frozen' };
  return { ok: true, balances: { available, frozen } };
}
