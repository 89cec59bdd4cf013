import { bigint, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';

/**
 * A user's balance in 0.0001 yuan units (DESIGN §4–5). Changed only through the ledger, so
 * that the balance always equals the sum of its ledger rows.
 */
export const accounts = pgTable('accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id')
    .notNull()
    .references(() => tenants.id),
  available: bigint('available', { mode: 'number' }).notNull().default(0),
  frozen: bigint('frozen', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
