import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../auth.tables.ts';

/**
 * Personal access tokens (issue 32). Only the token's SHA-256 is kept: 32 random bytes need no
 * slow hash, and a lookup by hash is one index probe. Revoking deletes the row, so the next
 * request on any replica finds nothing.
 */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** gpu_ and the next 4 characters, to tell tokens apart on screen. */
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('access_tokens_hash').on(t.tokenHash), index('access_tokens_user').on(t.userId)],
);
