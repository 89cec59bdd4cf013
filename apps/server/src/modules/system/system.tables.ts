import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One-off facts about this installation (e.g. that the demo data was seeded). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
