import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One-off facts about this installation (that the demo data was seeded, versions of cached
 * tables): plumbing several modules share, owned by no feature.
 */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
