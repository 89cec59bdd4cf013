import { jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Back-office administrators: their own table and token audience (DESIGN §9). */
export const admins = pgTable('admins', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  roles: jsonb('roles').$type<string[]>().notNull().default(['ADMIN']),
  status: text('status').notNull().default('ACTIVE'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
