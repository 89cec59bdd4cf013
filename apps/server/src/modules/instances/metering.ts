import { floorToFen } from '@gpu/shared';
import type { Tx } from '../../app/db/client.ts';
import { postLedgerEntries } from '../billing/ledger.ts';
import { lockVoucher } from '../vouchers/vouchers.usecases.ts';
import { accruedAt } from './instances.models.ts';
import { createInstancesRepository, type InstanceRow } from './instances.repository.ts';
import { returnVoucherOf, splitHold } from './voucher-hold.ts';

const HOUR_MS = 3_600_000;
/** The UTC clock hour `at` falls in (also a Shanghai hour: UTC+8 has no half hours). */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/**
 * What pay-as-you-go has posted by `at`: the exact accrual floored to whole fen (issue 10).
 * The remainder (< 1 fen) is not lost: accrual is computed from the period start, so it is
 * posted as soon as it completes a fen; at release a last remainder under a fen is never charged.
 */
export const postedBy = (inst: InstanceRow, at: Date) => floorToFen(accruedAt(inst, at));

/**
 * Charges a pay-as-you-go instance what it accrued up to `now` and was not charged yet, as one
 * ledger row. Call with the instance row locked. The key names the charged range, so a
 * repeated or concurrent run finds its row already posted and charges nothing twice; a missed
 * run is caught up by the next, because accrual is computed from the period start.
 * Returns the amount charged (0 when nothing was due).
 */
export const chargeAccrued = (tx: Tx, inst: InstanceRow, now: Date): Promise<number> =>
  chargeAccruedMany(tx, [inst], now);

/**
 * `chargeAccrued` for many locked instances in a few statements whatever their number: one
 * ledger call, one update of what each was charged, one upsert of their hourly bill lines.
 * Returns the total charged.
 */
export async function chargeAccruedMany(tx: Tx, insts: InstanceRow[], now: Date): Promise<number> {
  const due = insts
    .filter((inst) => inst.billingType === 'hourly')
    .map((inst) => {
      const upTo = postedBy(inst, now);
      const amount = upTo - inst.charged;
      // The voucher hold pays first (voucher-hold.ts); only the rest reaches the ledger.
      return { inst, upTo, amount, ...splitHold(inst.voucherHeld, amount) };
    })
    .filter(({ amount }) => amount > 0);
  if (due.length === 0) return 0;
  const toLedger = due.filter((d) => d.fromBalance > 0);
  const posted = await postLedgerEntries(
    tx,
    toLedger.map(({ inst, upTo, fromBalance }) => ({
      userId: inst.userId,
      kind: 'charge' as const,
      amount: -fromBalance,
      // Metering may take the balance below zero by at most one interval's cost (arrears, DESIGN §5).
      allowNegative: true,
      idempotencyKey: `instance:${inst.id}:meter:${inst.charged}-${upTo}`,
      reference: { type: 'instance', id: inst.id },
      memo: `按量计费 ${inst.name}`,
      at: now,
    })),
  );
  const postedOf = new Map(toLedger.map((d, i) => [d.inst.id, posted[i]]));
  const repo = createInstancesRepository({ db: tx });
  await repo.setCharged(due.map(({ inst, upTo }) => ({ id: inst.id, charged: upTo })));
  // A key already posted means this range was charged and billed with it: no second bill line
  // and no second spend of the hold. A range the hold paid whole has no ledger row.
  const fresh = due.flatMap((d): ((typeof due)[number] & { entryId: number | null })[] => {
    if (d.fromBalance === 0) return [{ ...d, entryId: null }];
    const result = postedOf.get(d.inst.id);
    return result?.created ? [{ ...d, entryId: result.entry.id }] : [];
  });
  await repo.spendVoucherHolds(
    fresh.filter((d) => d.fromVoucher > 0).map((d) => ({ id: d.inst.id, amount: d.fromVoucher })),
  );
  const until = await repo.meteredUntil(fresh.map(({ inst }) => inst.id));
  await repo.upsertMeterLines(
    fresh.flatMap(({ inst, upTo, entryId, fromVoucher }) => {
      let voucherLeft = fromVoucher;
      return hourlyLines(inst, until.get(inst.id) ?? null, upTo, now).map((line) => {
        // The hold pays the earliest hours first; a line shows what the balance and the voucher paid.
        const byVoucher = Math.min(voucherLeft, line.amount);
        voucherLeft -= byVoucher;
        return {
          tenantId: inst.tenantId,
          userId: inst.userId,
          instanceId: inst.id,
          billingType: 'hourly' as const,
          kind: 'metering',
          ...line,
          amount: line.amount - byVoucher,
          voucherAmount: byVoucher,
          ledgerEntryId: entryId,
          // A line's time is when its span began, so each hour's spend falls on its own day.
          createdAt: line.periodStart,
        };
      });
    }),
  );
  return fresh.reduce((n, { fromBalance }) => n + fromBalance, 0);
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

/**
 * Splits what is posted now over UTC clock hours. The span starts where the instance's bill lines
 * end, or where it last started running if later, so lines tile while it runs (line N ends where
 * N+1 starts). Each hour gets what was posted by its end less what was posted by its start: a
 * pure function of time, so however the runs fall the lines come out the same.
 */
export function hourlyLines(inst: InstanceRow, meteredUntil: Date | null, upTo: number, now: Date) {
  const since = inst.runningSince;
  let start =
    since && (!meteredUntil || meteredUntil.getTime() < since.getTime()) ? since : (meteredUntil ?? now);
  // Nothing ran since the last line (a stopped instance's leftover): one point at `now`.
  if (!since || start.getTime() > now.getTime()) start = now;
  const lines: { meterHour: Date; periodStart: Date; periodEnd: Date; amount: number }[] = [];
  let before = inst.charged;
  while (true) {
    const hour = hourOf(start);
    const next = new Date(hour.getTime() + HOUR_MS);
    const end = next.getTime() < now.getTime() ? next : now;
    const by = end === now ? upTo : Math.min(upTo, Math.max(before, postedBy(inst, end)));
    lines.push({ meterHour: hour, periodStart: start, periodEnd: end, amount: by - before });
    before = by;
    if (end === now) return lines;
    start = end;
  }
}

/** Closes the current running period: its accrual is kept, the clock stops (power off, release). */
export function closePeriod(inst: InstanceRow, now: Date) {
  return { accruedClosed: accruedAt(inst, now), runningSince: null };
}
