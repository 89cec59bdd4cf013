import { floorToFen } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../platform/db/client.ts';
import { postLedgerEntries } from '../../ledger/ledger.ts';
import { accruedAt, currentRate } from '../instances.models.ts';
import type { InstanceRow } from '../instances.repository.ts';
import { billingRecords } from '../instances.tables.ts';
import { splitHold } from './voucher-hold.ts';

/**
 * The reference implementation of metering: the one-posting-at-a-time JS path the set-based
 * SQL (metering.repository.ts) replaced in issue 15, kept as written for the equivalence
 * property test. Its rules: posted-by = accruedAt floored to fen; one ledger row per instance
 * through postLedgerEntries (accounts in user-id order, postings applied in the order given);
 * hourly bill lines from hourlyLines; a voucher hold pays first (voucher-hold.ts, issue 11).
 */
const HOUR_MS = 3_600_000;
const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const postedBy = (inst: InstanceRow, at: Date) => floorToFen(accruedAt(inst, at));

export async function referenceChargeMany(tx: Tx, insts: InstanceRow[], now: Date): Promise<number> {
  const due = insts
    .filter((inst) => inst.billingType === 'hourly')
    .map((inst) => {
      const upTo = postedBy(inst, now);
      const amount = upTo - inst.charged;
      // The voucher hold pays first; only the rest reaches the ledger.
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
      allowNegative: true,
      idempotencyKey: `instance:${inst.id}:meter:${inst.charged}-${upTo}`,
      reference: { type: 'instance', id: inst.id },
      memo: `${inst.noGpuRate === null ? '按量计费' : '无卡模式'} ${inst.name}`,
      at: now,
    })),
  );
  const postedOf = new Map(toLedger.map((d, i) => [d.inst.id, posted[i]]));
  for (const { inst, upTo } of due) {
    await tx.execute(sql`update instances set charged = ${upTo}, updated_at = now() where id = ${inst.id}`);
  }
  // A key already posted: charged and billed with it, no second bill line nor spend of the hold.
  const fresh = due.flatMap((d) => {
    if (d.fromBalance === 0) return [{ ...d, entryId: null as number | null }];
    const result = postedOf.get(d.inst.id);
    return result?.created ? [{ ...d, entryId: result.entry.id as number | null }] : [];
  });
  for (const { inst, upTo, entryId, fromVoucher } of fresh) {
    // No-GPU mode's time has lines of its own kind and rate (issue 30).
    const kind = inst.noGpuRate === null ? 'metering' : 'nogpu';
    if (fromVoucher > 0) {
      await tx.execute(sql`
        update instances set voucher_held = voucher_held - ${fromVoucher},
          voucher_used = voucher_used + ${fromVoucher} where id = ${inst.id}`);
    }
    const until = (
      (await tx.execute(sql`
        select period_end from billing_records
        where instance_id = ${inst.id} and meter_hour is not null and kind = ${kind}
        order by meter_hour desc limit 1`)) as unknown as { rows: { period_end: string | Date }[] }
    ).rows[0]?.period_end;
    const lines = hourlyLines(inst, until ? new Date(until) : null, upTo, now);
    let voucherLeft = fromVoucher;
    await tx
      .insert(billingRecords)
      .values(
        lines.map((line) => {
          // The hold pays the earliest hours first.
          const byVoucher = Math.min(voucherLeft, line.amount);
          voucherLeft -= byVoucher;
          return {
            tenantId: inst.tenantId,
            userId: inst.userId,
            instanceId: inst.id,
            billingType: 'hourly' as const,
            kind,
            hourlyRate: currentRate(inst),
            ...line,
            amount: line.amount - byVoucher,
            voucherAmount: byVoucher,
            ledgerEntryId: entryId,
            createdAt: line.periodStart,
          };
        }),
      )
      .onConflictDoUpdate({
        target: [billingRecords.instanceId, billingRecords.meterHour, billingRecords.kind],
        set: {
          amount: sql`${billingRecords.amount} + excluded.amount`,
          voucherAmount: sql`${billingRecords.voucherAmount} + excluded.voucher_amount`,
          periodStart: sql`least(${billingRecords.periodStart}, excluded.period_start)`,
          periodEnd: sql`greatest(${billingRecords.periodEnd}, excluded.period_end)`,
          ledgerEntryId: sql`coalesce(excluded.ledger_entry_id, ${billingRecords.ledgerEntryId})`,
        },
      });
  }
  // What each owner spent moves by what their new lines add: the part the balance paid.
  for (const { inst, fromBalance } of fresh) {
    if (fromBalance > 0)
      await tx.execute(
        sql`update accounts set spent = spent + ${fromBalance} where user_id = ${inst.userId}`,
      );
  }
  return fresh.reduce((n, { fromBalance }) => n + fromBalance, 0);
}

function hourlyLines(inst: InstanceRow, meteredUntil: Date | null, upTo: number, now: Date) {
  const since = inst.runningSince;
  let start =
    since && (!meteredUntil || meteredUntil.getTime() < since.getTime()) ? since : (meteredUntil ?? now);
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
