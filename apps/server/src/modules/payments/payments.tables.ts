import type { PaymentType, RechargeOrderStatus } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';

/**
 * One top-up through a payment provider (DESIGN §8). PENDING until the provider confirms
 * payment (SUCCESS, credited once through the ledger), the provider refuses it (FAIL), or it
 * is closed unpaid after its expiry (CLOSED).
 */
export const rechargeOrders = pgTable(
  'recharge_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Our out_trade_no. */
    orderNo: text('order_no').notNull().unique(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 0.0001 yuan units. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** What the customer chose (`alipay`). */
    paymentType: text('payment_type').$type<PaymentType>().notNull(),
    /** Which driver took the order (`simulated`, `alipay`). */
    provider: text('provider').notNull(),
    status: text('status').$type<RechargeOrderStatus>().notNull().default('PENDING'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    qrCode: text('qr_code'),
    providerTradeNo: text('provider_trade_no'),
    failReason: text('fail_reason'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Last time a replica asked the provider about this order (claimed with a conditional update). */
    lastQueriedAt: timestamp('last_queried_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The list's order (newest first, id breaking ties) straight from the index.
    index('recharge_orders_user').on(t.userId, t.tenantId, t.createdAt, t.id),
    // Orders after the tally's settled id (the list's exact total, platform/db/tallies.ts).
    index('recharge_orders_user_id').on(t.userId, t.tenantId, t.id),
    index('recharge_orders_pending').on(t.status, t.expiresAt),
    check('recharge_orders_status', sql`${t.status} in ('PENDING', 'SUCCESS', 'FAIL', 'CLOSED')`),
    check('recharge_orders_amount', sql`${t.amount} > 0`),
  ],
);
