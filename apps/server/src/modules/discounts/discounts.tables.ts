import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { regions } from '../hosts/hosts.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';

/**
 * Discount rules (DESIGN §5). Null tenant, region or GPU model means "any". The lowest active
 * matching rate wins. `rateBp` is the share of the price paid in basis points (8000 = 8折).
 */
export const discounts = pgTable(
  'discounts',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    regionId: integer('region_id').references(() => regions.id, { onDelete: 'cascade' }),
    gpuModel: text('gpu_model'),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    rateBp: integer('rate_bp').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('discounts_window').on(t.enabled, t.endsAt)],
);
