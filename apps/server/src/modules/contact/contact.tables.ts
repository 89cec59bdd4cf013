import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.ts';

/** Bare-metal enquiries from /contact (SPEC.md §3 Enquiry), each in the tenant it came through. */
export const enquiries = pgTable(
  'enquiries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    company: text('company'),
    product: text('product').notNull(),
    quantity: integer('quantity').notNull(),
    question: text('question'),
    /** NEW until an admin marks it HANDLED. */
    status: text('status').notNull().default('NEW'),
    ip: text('ip'),
    handledBy: integer('handled_by'),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledNote: text('handled_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('enquiries_tenant_time').on(t.tenantId, t.createdAt), index('enquiries_status').on(t.status)],
);
