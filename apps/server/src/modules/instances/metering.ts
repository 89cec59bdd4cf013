import type { Tx } from '../../app/db/client.ts';
import { postLedgerEntries } from '../billing/ledger.ts';
import { accruedAt } from './instances.models.ts';
import { createInstancesRepository, type InstanceRow } from './instances.repository.ts';

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
 * ledger call, one update of what each was charged, one insert of their bill lines.
 * Returns the total charged.
 */
export async function chargeAccruedMany(tx: Tx, insts: InstanceRow[], now: Date): Promise<number> {
  const due = insts
    .filter((inst) => inst.billingType === 'hourly')
    .map((inst) => {
      const upTo = accruedAt(inst, now);
      return { inst, upTo, amount: upTo - inst.charged };
    })
    .filter(({ amount }) => amount > 0);
  if (due.length === 0) return 0;
  const posted = await postLedgerEntries(
    tx,
    due.map(({ inst, upTo, amount }) => ({
      userId: inst.userId,
      kind: 'charge' as const,
      amount: -amount,
      // Metering may take the balance below zero by at most one interval's cost (arrears, DESIGN §5).
      allowNegative: true,
      idempotencyKey: `instance:${inst.id}:meter:${inst.charged}-${upTo}`,
      reference: { type: 'instance', id: inst.id },
      memo: `按量计费 ${inst.name}`,
      at: now,
    })),
  );
  const repo = createInstancesRepository({ db: tx });
  await repo.setCharged(due.map(({ inst, upTo }) => ({ id: inst.id, charged: upTo })));
  // A key already posted means this range was charged and billed with it: no second bill line.
  const fresh = due.flatMap((d, i) => {
    const result = posted[i];
    return result?.created ? [{ ...d, entryId: result.entry.id }] : [];
  });
  await repo.bill(
    fresh.map(({ inst, amount, entryId }) => ({
      tenantId: inst.tenantId,
      userId: inst.userId,
      instanceId: inst.id,
      billingType: 'hourly' as const,
      kind: 'metering',
      periodStart: inst.runningSince ?? now,
      periodEnd: now,
      amount,
      ledgerEntryId: entryId,
      createdAt: now,
    })),
  );
  return fresh.reduce((n, { amount }) => n + amount, 0);
}

/** Closes the current running period: its accrual is kept, the clock stops (power off, release). */
export function closePeriod(inst: InstanceRow, now: Date) {
  return { accruedClosed: accruedAt(inst, now), runningSince: null };
}
