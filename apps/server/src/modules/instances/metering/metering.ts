import type { Tx } from '../../../platform/db/client.ts';
import { billingErrors } from '../../ledger/index.ts';
import { lockVoucher } from '../../vouchers/index.ts';
import { accruedAt } from '../instances.models.ts';
import type { InstanceRow } from '../instances.repository.ts';
import { createMeteringRepository } from './metering.repository.ts';
import { returnVoucherOf } from './voucher-hold.ts';

/**
 * Charges a pay-as-you-go instance what it accrued up to `now` and was not charged yet, as one
 * ledger row. Call with the instance row locked. The key names the charged range, so a
 * repeated or concurrent run finds its row already posted and charges nothing twice; a missed
 * run is caught up by the next, because accrual is computed from the period start.
 * Returns the amount charged (0 when nothing was due).
 */
export const chargeAccrued = async (tx: Tx, inst: InstanceRow, now: Date): Promise<number> =>
  (await chargeAccruedMany(tx, [inst], now)).charged;

/**
 * `chargeAccrued` for many locked instances, set-based (issue 15): whatever their number, one
 * statement locks their owners' accounts (ascending user id, after the instance rows: the lock
 * order of ledger.ts) and one posts everything — the ledger rows with their balances after,
 * each account once, what each instance was charged, its hourly bill lines (the named steps in
 * charge.repository.ts). What is posted by a time is the accrual floored to whole fen
 * (issue 10): the remainder (< 1 fen) is not lost, it is posted once it completes a fen.
 * Returns the total charged now and the owners' available balances after it. Throws (rolling
 * back the caller's transaction) on a ledger key already used for another movement, a missing
 * account, or a key another transaction took.
 */
export async function chargeAccruedMany(
  tx: Tx,
  insts: { id: number; userId: number }[],
  now: Date,
): Promise<{ charged: number; available: Map<number, number> }> {
  if (insts.length === 0) return { charged: 0, available: new Map() };
  const repo = createMeteringRepository({ db: tx });
  await repo.lockAccounts([...new Set(insts.map((i) => i.userId))].sort((x, y) => x - y));
  const out = await repo.charge(
    insts.map((i) => i.id),
    now,
  );
  if (out.keyMismatches > 0)
    throw new Error('a metering ledger key was already used for a different posting');
  if (out.withoutAccount > 0) throw billingErrors.accountMissing();
  if (out.raced > 0) throw new Error('ledger keys conflicted with another transaction; nothing was posted');
  return { charged: out.charged, available: out.available };
}

/** Closes the current running period: its accrual is kept, the clock stops (power off, release). */
export function closePeriod(inst: InstanceRow, now: Date) {
  return { accruedClosed: accruedAt(inst, now), runningSince: null };
}

/**
 * The last charge of a released instance, then its unspent voucher hold back to the voucher.
 * The voucher row is locked before the charge touches the account (lock order, ledger.ts).
 */
export async function settleForRelease(tx: Tx, inst: InstanceRow, now: Date) {
  if (inst.voucherId && inst.voucherHeld > 0) await lockVoucher(tx, inst.voucherId);
  await chargeAccrued(tx, inst, now);
  await returnVoucherOf(tx, inst, now);
}
