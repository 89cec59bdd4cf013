import type { NotificationChannel, NotificationEvent } from '@gpu/shared/notifications';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';
import { userNotices } from './notices.tables.ts';

/**
 * A user's notification preferences. `channels` holds only the events the user set (the
 * defaults of notifications.models.ts fill the rest, so a new event gets its default for all).
 * `lowBalanceThreshold` in money units (DESIGN §4); null: the default.
 */
export const notificationSettings = pgTable('notification_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  channels: jsonb('channels').$type<Partial<Record<NotificationEvent, NotificationChannel[]>>>().notNull(),
  lowBalanceThreshold: bigint('low_balance_threshold', { mode: 'number' }),
  /** Low balance is told once per dip: `below` until the balance is back at the threshold. */
  lowBalanceBelow: boolean('low_balance_below').notNull().default(false),
  /** Dips told so far: the dedupe key of the next one. */
  lowBalanceAlerts: integer('low_balance_alerts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The user's webhook endpoints; the signing secret is sealed with the app's secret box. */
export const userWebhooks = pgTable(
  'user_webhooks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secretEnc: text('secret_enc').notNull(),
    /** The secret's last characters, shown after the POST answer. */
    secretHint: text('secret_hint').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_webhooks_user').on(t.userId, t.id)],
);

/**
 * The outbox: one row per notice and outside channel (an SMS, or one webhook), written in the
 * notice's transaction; the delivery task claims due rows (`claimed_until`, SKIP LOCKED) and
 * sends them outside any transaction.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => userNotices.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<'sms' | 'webhook'>().notNull(),
    webhookId: bigint('webhook_id', { mode: 'number' }).references(() => userWebhooks.id, {
      onDelete: 'cascade',
    }),
    event: text('event').$type<NotificationEvent>().notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** A worker's lease on the row while it sends; another takes it only after this. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** Which claim the lease belongs to: a late worker's result is not written over a newer claim. */
    claimToken: text('claim_token'),
    responseStatus: integer('response_status'),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notification_deliveries_due').on(t.status, t.nextAttemptAt),
    index('notification_deliveries_webhook').on(t.webhookId, t.id),
  ],
);
