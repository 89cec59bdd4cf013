import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { newDocNo } from '../../platform/doc-no.ts';
import { accounts } from '../ledger/ledger.tables.ts';
import { recordNoPrefix } from './instances.models.ts';
import { billingRecords } from './instances.tables.ts';

export type BillInsert = typeof billingRecords.$inferInsert;

const param = sql.placeholder;

/**
 * One line with an amount and the spend it adds to its user's account (`bill`'s common case:
 * a package bought, renewed or refunded), built once and prepared: built afresh, Drizzle built
 * and PostgreSQL planned it on every purchase (issue 33).
 * Nullable columns are raw placeholders with their casts (a column's encoder cannot take null).
 */
const billOneStatement = preparedStatement('instances_bill_one', (db) => {
  const spent = db.$with('spent', { one: sql`one` }).as(sql`
    update accounts set spent = spent + ${param('amount')}::bigint
    where user_id = ${param('userId')}::integer
    returning 1 as one`);
  return db
    .with(spent)
    .insert(billingRecords)
    .values({
      tenantId: param('tenantId'),
      userId: param('userId'),
      instanceId: param('instanceId'),
      billingType: param('billingType'),
      kind: param('kind'),
      periodStart: param('periodStart'),
      periodEnd: param('periodEnd'),
      amount: param('amount'),
      voucherAmount: param('voucherAmount'),
      ledgerEntryId: sql`${param('ledgerEntryId')}::bigint`,
      meterHour: sql`${param('meterHour')}::timestamptz`,
      hourlyRate: sql`${param('hourlyRate')}::bigint`,
      recordNo: param('recordNo'),
      createdAt: sql`coalesce(${param('createdAt')}::timestamptz, now())`,
    });
});

/** The instances repository's `bill` (see there): lines and the spend they add, in one statement. */
export async function insertBillLines(db: DbOrTx, values: BillInsert | BillInsert[]): Promise<void> {
  const list = Array.isArray(values) ? values : [values];
  if (list.length === 0) return;
  const rows = list.map((v) => ({
    ...v,
    recordNo: v.recordNo ?? newDocNo(recordNoPrefix(v.kind), v.createdAt ?? new Date()),
  }));
  const [one] = rows;
  if (rows.length === 1 && one && one.amount !== 0) {
    await billOneStatement(db, {
      tenantId: one.tenantId,
      userId: one.userId,
      instanceId: one.instanceId,
      billingType: one.billingType,
      kind: one.kind,
      periodStart: one.periodStart,
      periodEnd: one.periodEnd,
      amount: one.amount,
      recordNo: one.recordNo,
      voucherAmount: one.voucherAmount ?? 0,
      ledgerEntryId: one.ledgerEntryId ?? null,
      meterHour: one.meterHour?.toISOString() ?? null,
      hourlyRate: one.hourlyRate ?? null,
      createdAt: one.createdAt?.toISOString() ?? null,
    });
    return;
  }
  const byUser = new Map<number, number>();
  for (const r of rows) byUser.set(r.userId, (byUser.get(r.userId) ?? 0) + r.amount);
  const moves = [...byUser].filter(([, amount]) => amount !== 0);
  if (moves.length === 0) {
    await db.insert(billingRecords).values(rows);
    return;
  }
  const spent = db.$with('spent').as(
    db
      .update(accounts)
      .set({ spent: sql`${accounts.spent} + v.amount` })
      .from(
        sql`(values ${sql.join(
          moves.map(([userId, amount]) => sql`(${userId}::integer, ${amount}::bigint)`),
          sql`, `,
        )}) as v(user_id, amount)`,
      )
      .where(sql`${accounts.userId} = v.user_id`)
      .returning({ userId: accounts.userId }),
  );
  await db.with(spent).insert(billingRecords).values(rows);
}
