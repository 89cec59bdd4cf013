import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Tx } from '../../../platform/db/client.ts';
import { accruedAt } from '../instances.models.ts';
import { instances } from '../instances.tables.ts';
import { referenceChargeMany } from './metering.reference.test-helpers.ts';
import { createMeteringRepository } from './metering.repository.ts';
import { chargeAccruedMany } from './metering.ts';

/**
 * What the metering property test draws (instances, power cycles, metering times), the two
 * paths it compares and what it reads back after each.
 */
export const T0 = Date.parse('2026-11-22T08:00:00Z');
export const MIN = 60_000;

export const instanceArb = fc.record({
  owner: fc.nat({ max: 2 }),
  hourlyRate: fc.oneof(fc.integer({ min: 1, max: 400_000 }), fc.constantFrom(3_000, 19_800, 39_800, 1)),
  accruedClosed: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000_000 })),
  /** Seconds after T0 it started running; null: stopped (only a closed accrual). */
  since: fc.option(fc.integer({ min: 0, max: 3 * 3600 }), { nil: null }),
  status: fc.constantFrom('RUNNING', 'RUNNING', 'STOPPING', 'STOPPED'),
  billingType: fc.constantFrom('hourly', 'hourly', 'hourly', 'daily'),
  /** No-GPU mode (issue 30): its running period accrues at this rate, billed as its own kind. */
  noGpuRate: fc.option(fc.constantFrom(1_000, 1, 5_000), { nil: null }),
  /** A pay-as-you-go voucher hold (issue 11): spent before the balance. */
  voucherHeld: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 300_000 })),
});
/** A metering run at a time (ms after T0, off the second too), or a power cycle of one instance. */
export const stepArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ meter: fc.integer({ min: 0, max: 6 * 3600 * 1000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      cycle: fc.nat({ max: 5 }),
      off: fc.integer({ min: 0, max: 6 * 3600 * 1000 }),
      gap: fc.integer({ min: 0, max: 2 * 3600 * 1000 }),
      /** Powered on again in the other mode: with GPUs ↔ no-GPU mode (issue 30). */
      switchMode: fc.boolean(),
    }),
  },
);
export const caseArb = fc.record({
  balances: fc.array(fc.integer({ min: -5_000, max: 50_000 }), { minLength: 3, maxLength: 3 }),
  insts: fc.array(instanceArb, { minLength: 1, maxLength: 6 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 5 }),
});
export type Case = typeof caseArb extends fc.Arbitrary<infer C> ? C : never;

export type Path = (tx: Tx, ids: number[], now: Date) => Promise<number>;
/** The set-based path as metering runs it: lock what is due, charge it. */
export const setBased: Path = async (tx, ids, now) => {
  const locked = await createMeteringRepository({ db: tx }).lockDue(now, { ids });
  return (await chargeAccruedMany(tx, locked, now)).charged;
};
/** The reference path as metering ran it: accruing rows, charged in JS. */
export const reference: Path = async (tx, ids, now) => {
  const rows = await tx.select().from(instances).where(inArray(instances.id, ids)).orderBy(instances.id);
  return referenceChargeMany(
    tx,
    rows.filter((r) => r.status === 'RUNNING' || r.status === 'STOPPING'),
    now,
  );
};

export class Rollback {
  constructor(readonly state: unknown) {}
}

export const at = (s: Case['steps'][number]) => ('meter' in s ? s.meter : s.off);

/** Power off (accrual closed, as lifecycle's closePeriod) then on again `gap` later. */
export async function powerCycle(tx: Tx, id: number, off: number, gap: number, switchMode = false) {
  const [row] = await tx.select().from(instances).where(eq(instances.id, id));
  if (row?.billingType !== 'hourly' || !row.runningSince) return;
  const when = new Date(T0 + off);
  const noGpuRate = switchMode ? (row.noGpuRate === null ? 1_000 : null) : row.noGpuRate;
  await tx
    .update(instances)
    .set({ accruedClosed: accruedAt(row, when), runningSince: new Date(when.getTime() + gap), noGpuRate })
    .where(eq(instances.id, id));
}

export async function snapshot(tx: Tx, f: { userIds: number[]; ids: number[] }) {
  const q = async (query: ReturnType<typeof sql>) =>
    (await tx.execute(query)) as unknown as { rows: unknown[] };
  const users = `{${f.userIds.join(',')}}`;
  const ids = `{${f.ids.join(',')}}`;
  return {
    ledger: (
      await q(sql`
        select user_id, tenant_id, kind, amount::text, frozen_amount::text, available_after::text,
               frozen_after::text, idempotency_key, reference_type, reference_id, memo, created_at
        from ledger_entries where user_id = any(${users}::int[]) order by id`)
    ).rows,
    accounts: (
      await q(sql`select user_id, available::text, frozen::text, spent::text, updated_at from accounts
                  where user_id = any(${users}::int[]) order by user_id`)
    ).rows,
    instances: (
      await q(
        sql`select id, charged::text, voucher_held::text, voucher_used::text from instances where id = any(${ids}::bigint[]) order by id`,
      )
    ).rows,
    lines: (
      await q(sql`
        select b.tenant_id, b.user_id, b.instance_id, b.billing_type, b.kind, b.meter_hour, b.period_start,
               b.period_end, b.amount::text, b.voucher_amount::text, b.hourly_rate::text, b.created_at,
               l.idempotency_key
        from billing_records b left join ledger_entries l on l.id = b.ledger_entry_id
        where b.instance_id = any(${ids}::bigint[]) order by b.instance_id, b.meter_hour, b.kind`)
    ).rows,
  };
}
