import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';

/**
 * Payments made on chain (SPEC.md §7 Blockchain). One transaction backs at most one order
 * (unique chain + hash), so a transfer can never be credited twice through two orders.
 */
export const blockchainOrders = pgTable(
  'blockchain_orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    tenantId: integer('tenant_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    chain: text('chain').notNull(),
    currency: text('currency').notNull(),
    /** The on-chain amount in micro units (stablecoins have 6 decimals). */
    amountMicro: bigint('amount_micro', { mode: 'number' }).notNull(),
    /** Yuan units credited on confirmation, fixed when the order is made. */
    creditAmount: bigint('credit_amount', { mode: 'number' }).notNull(),
    /** Lower case, without 0x. */
    txHash: text('tx_hash').notNull(),
    /** PENDING, CONFIRMED or FAILED. */
    status: text('status').notNull().default('PENDING'),
    failReason: text('fail_reason'),
    confirmations: integer('confirmations').notNull().default(0),
    /** When the poll last asked the chain driver (spreads the work, throttles status calls). */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('blockchain_orders_tx').on(t.chain, t.txHash),
    index('blockchain_orders_user').on(t.userId, t.createdAt),
    index('blockchain_orders_pending').on(t.status, t.checkedAt),
  ],
);

/** The simulated chain's transactions: what its local confirm page decided (DESIGN §8 style). */
export const simulatedChainTxs = pgTable(
  'simulated_chain_txs',
  {
    chain: text('chain').notNull(),
    txHash: text('tx_hash').notNull(),
    /** CONFIRMED or FAILED. */
    status: text('status').notNull(),
    amountMicro: bigint('amount_micro', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('simulated_chain_txs_pk').on(t.chain, t.txHash)],
);
