import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';

/**
 * A user's balance in 0.0001 yuan units (DESIGN §4–5). Changed only through the ledger, so
 * that the balance always equals the sum of its ledger rows.
 */
export const accounts = pgTable(
  'accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    available: bigint('available', { mode: 'number' }).notNull().default(0),
    frozen: bigint('frozen', { mode: 'number' }).notNull().default(0),
    /**
     * What the user has spent: Σ of their bill lines' amounts (cash, refunds negative), moved in
     * the statement that writes or grows a line, under the lock its charge already holds on this
     * row (issue 33: the console's total and the back office's users read it, not every line).
     */
    spent: bigint('spent', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The key a ledger row refers to: its account and that account's tenant (issue 15).
  (t) => [
    unique('accounts_user_tenant').on(t.userId, t.tenantId),
    // The back office's users sorted by balance read only their page (issue 33).
    index('accounts_available').on(t.available, t.userId),
    index('accounts_spent').on(t.spent, t.userId),
  ],
);

export const LEDGER_KINDS = ['recharge', 'charge', 'refund', 'voucher', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * Append-only: one row per change of an account, written only by `postLedgerEntry`.
 * `amount` changes `available`, `frozen_amount` changes `frozen` (both signed units), and the
 * row keeps both balances after it. Σ amount = available and Σ frozen_amount = frozen, always.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    frozenAmount: bigint('frozen_amount', { mode: 'number' }).notNull().default(0),
    availableAfter: bigint('available_after', { mode: 'number' }).notNull(),
    frozenAfter: bigint('frozen_after', { mode: 'number' }).notNull(),
    /** A retried posting with the same key changes nothing (e.g. `recharge:<orderNo>`). */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** What the change is about, e.g. `recharge_order` / `42`. */
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    memo: text('memo'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One check per row for both columns (issue 15): the row's account exists and the row's
    // tenant is that account's (accounts.tenant_id refers to tenants). Deleting an account
    // deletes its ledger, as before.
    foreignKey({
      name: 'ledger_entries_account_fk',
      columns: [t.userId, t.tenantId],
      foreignColumns: [accounts.userId, accounts.tenantId],
    }).onDelete('cascade'),
    index('ledger_entries_user').on(t.userId, t.id),
    // Days of the whole platform (the operations dashboard's roll-up and today's live figures).
    index('ledger_entries_time').on(t.createdAt),
    check('ledger_entries_kind', sql`${t.kind} in ('recharge', 'charge', 'refund', 'voucher', 'adjustment')`),
    check('ledger_entries_nonzero', sql`${t.amount} <> 0 or ${t.frozenAmount} <> 0`),
  ],
);
