import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';

/**
 * A user's SSH public keys (账号安全 → SSH公钥). Every key is written into authorized_keys of each
 * instance the user creates or powers on; the same key (fingerprint) once per user.
 */
export const userSshKeys = pgTable(
  'user_ssh_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The authorized_keys line (type, base64, comment), re-encoded from the parsed key. */
    publicKey: text('public_key').notNull(),
    keyType: text('key_type').notNull(),
    bits: integer('bits').notNull(),
    fingerprint: text('fingerprint').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_ssh_keys_user_fingerprint').on(t.userId, t.fingerprint),
    index('user_ssh_keys_user').on(t.userId, t.id),
  ],
);
