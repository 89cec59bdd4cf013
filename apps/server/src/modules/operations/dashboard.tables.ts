import { bigint, date, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.ts';

/**
 * The operations dashboard's trend per Shanghai day and tenant, for days that are over (issue 33:
 * summing 90 days of the ledger and bill lines on every refresh read millions of rows). A day is
 * written once, by the `operations.roll-up-days` task, when no row of it can change any more.
 */
export const opsDailyTotals = pgTable(
  'ops_daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Units, as the ledger: recharges; bills incl. vouchers; cash net of refunds. */
    recharge: bigint('recharge', { mode: 'number' }).notNull(),
    consumption: bigint('consumption', { mode: 'number' }).notNull(),
    revenue: bigint('revenue', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.tenantId] })],
);

/** The days rolled up (every tenant's rows of the day written, none for a tenant with nothing). */
export const opsRolledDays = pgTable('ops_rolled_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  rolledAt: timestamp('rolled_at', { withTimezone: true }).notNull().defaultNow(),
});
