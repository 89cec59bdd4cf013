import type { NotificationEvent } from '@gpu/shared/notifications';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';

/**
 * The message centre: everything the platform tells a user (an admin acted on their instance, low
 * balance, a guard stopped an instance, …). `dedupeKey` makes each event written once, however
 * many replicas or retries report it; the other channels (SMS, webhooks) fan out from this row.
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
    event: text('event').$type<NotificationEvent>().notNull().default('admin_action'),
    /** Unique per user: e.g. `idle_shutdown:<instance>:<started at>`. Null: never deduplicated. */
    dedupeKey: text('dedupe_key'),
    /** What the other channels need beyond the texts (webhook payload fields). */
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_notices_user').on(t.userId, t.id),
    uniqueIndex('user_notices_dedupe').on(t.userId, t.dedupeKey),
  ],
);
