import { bigserial, index, inet, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every admin write and sign-in (DESIGN §9). `detail` holds `{ before, after }` for edits, or what
 * the action needs to be understood later (a reason, an amount).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: integer('admin_id'),
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail'),
    ip: inet('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Each filter of the log screen with its order (newest first, id breaking ties), so a page
    // reads only its own rows however long the log grows (issue 33).
    index('audit_log_admin').on(t.adminId, t.createdAt, t.id),
    index('audit_log_time').on(t.createdAt, t.id),
    index('audit_log_target').on(t.target, t.createdAt, t.id),
    index('audit_log_action').on(t.action, t.createdAt, t.id),
  ],
);
