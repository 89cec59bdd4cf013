import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { admins } from '../auth/auth.tables.ts';

/**
 * Administrators' refresh tokens: as customers' (SHA-256 of the random value, rotated on each use,
 * a spent one presented again revokes the family), in their own table because they point at admins.
 * The family is the session id of `auth_sessions` (audience admin).
 */
export const adminRefreshTokens = pgTable(
  'admin_refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    family: text('family').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('admin_refresh_tokens_family').on(t.family),
    index('admin_refresh_tokens_admin').on(t.adminId),
  ],
);

/** One-time recovery codes of an administrator's 2FA, hashed; a used one is marked, never reused. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_recovery_codes_admin').on(t.adminId)],
);
