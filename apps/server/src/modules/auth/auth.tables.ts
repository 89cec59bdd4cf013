import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.ts';

/** Customers; a phone is unique within its tenant. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    phone: text('phone').notNull(),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    salesName: text('sales_name'),
    salesPhone: text('sales_phone'),
    certified: boolean('certified').notNull().default(false),
    /** ACTIVE or DISABLED (by an admin: loses access at the next request). */
    status: text('status').notNull().default('ACTIVE'),
    /** Access tokens issued before this are refused (password change, reset); epoch until then. */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }).notNull().default(new Date(0)),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_tenant_phone').on(t.tenantId, t.phone),
    uniqueIndex('users_tenant_username').on(t.tenantId, t.username),
    uniqueIndex('users_tenant_email').on(t.tenantId, t.email).where(sql`${t.email} is not null`),
    // The back office's search matches any part of a phone or name (ILIKE '%…%'): trigrams
    // answer it from the index instead of reading every user (pg_trgm, issue 33).
    index('users_phone_trgm').using('gin', t.phone.op('gin_trgm_ops')),
    index('users_username_trgm').using('gin', t.username.op('gin_trgm_ops')),
  ],
);

/**
 * Back-office administrators: their own table and token audience (DESIGN §9). `role` decides the
 * permissions (`@gpu/shared` admin-access); `tenant_id` makes a tenant operator; `roles` keeps
 * SPEC.md's ADMIN flag. The TOTP secret is sealed with the secret box; `totp_last_step` refuses a
 * code used once already.
 */
export const admins = pgTable('admins', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  roles: jsonb('roles').$type<string[]>().notNull().default(['ADMIN']),
  role: text('role').notNull().default('READONLY'),
  tenantId: integer('tenant_id').references(() => tenants.id),
  status: text('status').notNull().default('ACTIVE'),
  mustChangePassword: boolean('must_change_password').notNull().default(false),
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }).notNull().default(new Date(0)),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  lastLoginIp: text('last_login_ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Refresh tokens, stored as SHA-256 of the random value. Rotated on each use: the old row is
 * marked used; presenting a used one again revokes its whole family (theft detection).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    family: text('family').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    rememberMe: boolean('remember_me').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_family').on(t.family), index('refresh_tokens_user').on(t.userId)],
);

/**
 * Signed-in sessions: every access token names one (`sid`) and is refused once it is revoked
 * (logout, refresh-token reuse, password change). A user's session id is its refresh family.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    /** `user` or `admin`: the token audience, so ids of the two tables never mix. */
    audience: text('audience').notNull(),
    subjectId: integer('subject_id').notNull(),
    /** Where the sign-in came from, for the account-security screen's recent sign-ins. */
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last refresh (an administrator's session list shows it). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('auth_sessions_subject').on(t.audience, t.subjectId)],
);

/** SMS codes, hashed; one live code per (tenant, phone, purpose). */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verification_codes_lookup').on(t.tenantId, t.phone, t.purpose, t.createdAt),
    index('verification_codes_ip').on(t.ip, t.createdAt),
  ],
);

/** Failed sign-ins per account, so the per-account limit holds across replicas. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `user:<tenantId>:<phone>` or `admin:<username>`. */
    account: text('account').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_account').on(t.account, t.createdAt)],
);

/**
 * Per-IP request counts of the rate-limited endpoints, one row per key and fixed window, so the
 * limits hold across replicas (counted with one atomic upsert per request).
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    /** `<method> <route>|<ip>`. */
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limit_hits_window').on(t.windowStart)],
);
