import { bigint, bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';

/**
 * What the back office tells a user (an admin powered off, started or terminated their
 * instance, and why). The console lists the unread ones until the user acknowledges them.
 */
export const userNotices = pgTable(
  'user_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    instanceId: bigint('instance_id', { mode: 'number' }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_notices_user').on(t.userId, t.id)],
);
