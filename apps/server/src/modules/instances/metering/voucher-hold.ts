import type { Tx } from '../../../platform/db/client.ts';
import { returnToVoucher } from '../../vouchers/index.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';

/**
 * The pay-as-you-go voucher hold (DESIGN §5): at create min(remaining, one hour's price) moves
 * from the voucher onto the instance (`voucher_held`); metering spends it before the balance;
 * release gives what is left back to the voucher. Kept apart from metering's accrual maths so a
 * set-based metering can carry the same step over: per instance, `splitHold`, then
 * `spendVoucherHolds` for the voucher part and the ledger for the rest, in one transaction
 * under the instance lock (exactly once: the hold and `charged` move together).
 */

/** How a metered amount is paid: from the hold first, the rest from the balance. Integer units. */
export function splitHold(held: number, amount: number): { fromVoucher: number; fromBalance: number } {
  const fromVoucher = Math.max(0, Math.min(held, amount));
  return { fromVoucher, fromBalance: amount - fromVoucher };
}

/**
 * Gives the instance's unspent hold back to its voucher (with `includeUsed`, also what the
 * voucher already paid: a create that failed). Call with the instance locked, after any final
 * metering; the voucher must come before any account in this transaction's lock order.
 * Answers what went back.
 */
export async function returnVoucherOf(
  tx: Tx,
  inst: Pick<InstanceRow, 'id'>,
  now: Date,
  opts: { includeUsed?: boolean } = {},
): Promise<{ held: number; used: number }> {
  const repo = createInstancesRepository({ db: tx });
  const fresh = await repo.lock(inst.id);
  if (!fresh?.voucherId) return { held: 0, used: 0 };
  const held = fresh.voucherHeld;
  const used = opts.includeUsed ? fresh.voucherUsed : 0;
  if (held + used <= 0) return { held: 0, used: 0 };
  await returnToVoucher(tx, fresh.voucherId, held + used, now);
  await repo.update(fresh.id, { voucherHeld: 0, ...(opts.includeUsed ? { voucherUsed: 0 } : {}) });
  return { held, used };
}
