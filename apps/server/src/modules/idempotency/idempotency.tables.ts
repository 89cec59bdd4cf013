import { bigserial, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';

/**
 * One request sent with an `Idempotency-Key` header: claimed (inserted) before the work runs,
 * so the unique (user, scope, key) lets one request of a key run; the answer is stored when it
 * is sent, and replays of the key get it back. Purged after a day.
 */
export const idempotencyRequests = pgTable(
  'idempotency_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The operation, e.g. `instances.create`: the same key on another operation is another request. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the validated body and query: a key reused with other input is refused. */
    requestHash: text('request_hash').notNull(),
    /** When the running request claimed the key (a claim older than the lease may be taken over). */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** Null while the first request runs. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    unique('idempotency_requests_user_scope_key').on(t.userId, t.scope, t.key),
    index('idempotency_requests_created_at').on(t.createdAt),
  ],
);
