import type { Tx } from '../../app/db/client.ts';
import { postLedgerEntry } from '../billing/ledger.ts';
import { accruedAt } from './instances.models.ts';
import { createInstancesRepository, type InstanceRow } from './instances.repository.ts';

/**
 * Charges a pay-as-you-go instance what it accrued up to `now` and was not charged yet, as one
 * ledger row. Call with the instance row locked. The key names the charged range, so a
 * repeated or concurrent run finds its row already posted and charges nothing twice; a missed
 * run is caught up by the next, because accrual is computed from the period start.
 * Returns the amount charged (0 when nothing was due).
 */
export async function chargeAccrued(tx: Tx, inst: InstanceRow, now: Date): Promise<number> {
  if (inst.billingType !== 'hourly') return 0;
  const due = accruedAt(inst, now);
  const delta = due - inst.charged;
  if (delta <= 0) return 0;
  const { entry } = await postLedgerEntry(tx, {
    userId: inst.userId,
    kind: 'charge',
    amount: -delta,
    // Metering may take the balance below zero by at most one interval's cost (arrears, DESIGN §5).
    allowNegative: true,
    idempotencyKey: `instance:${inst.id}:meter:${inst.charged}-${due}`,
    reference: { type: 'instance', id: inst.id },
    memo: `按量计费 ${inst.name}`,
    at: now,
  });
  const repo = createInstancesRepository({ db: tx });
  await repo.update(inst.id, { charged: due });
  await repo.bill({
    tenantId: inst.tenantId,
    userId: inst.userId,
    instanceId: inst.id,
    billingType: 'hourly',
    kind: 'metering',
    periodStart: inst.runningSince ?? now,
    periodEnd: now,
    amount: delta,
    ledgerEntryId: entry.id,
    createdAt: now,
  });
  return delta;
}

/** Closes the current running period: its accrual is kept, the clock stops (power off, release). */
export function closePeriod(inst: InstanceRow, now: Date) {
  return { accruedClosed: accruedAt(inst, now), runningSince: null };
}
