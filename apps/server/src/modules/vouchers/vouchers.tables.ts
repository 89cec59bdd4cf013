import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { admins, users } from '../auth/auth.tables.ts';
import { regions } from '../hosts/hosts.tables.ts';
import { tenants } from '../tenants/tenants.tables.ts';

/**
 * What vouchers are issued from (SPEC.md §7 Voucher configs). Money in 0.0001-yuan units.
 * Null region / GPU model means any. Once vouchers were issued it can only be archived.
 */
export const voucherConfigs = pgTable('voucher_configs', {
  id: serial('id').primaryKey(),
  /**
   * The tenant whose operator made it (issue 29): it is issued only to that tenant's users.
   * Null: a platform administrator's config, for any tenant.
   */
  tenantId: integer('tenant_id').references(() => tenants.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  faceAmount: bigint('face_amount', { mode: 'number' }).notNull(),
  validDays: integer('valid_days'),
  validUntil: timestamp('valid_until', { withTimezone: true }),
  regionId: integer('region_id').references(() => regions.id),
  gpuModel: text('gpu_model'),
  minOrderAmount: bigint('min_order_amount', { mode: 'number' }).notNull().default(0),
  perUserLimit: integer('per_user_limit').notNull().default(1),
  enabled: boolean('enabled').notNull().default(true),
  archived: boolean('archived').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One user's voucher. `remaining` is what it can still pay; its status is computed from
 * `remaining` and `expires_at` (never stored, so it cannot go stale). Scope and minimum are
 * copied from the config at issue, so editing a config never changes vouchers already given.
 */
export const vouchers = pgTable(
  'vouchers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    configId: integer('config_id')
      .notNull()
      .references(() => voucherConfigs.id),
    distributionId: integer('distribution_id'),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    remaining: bigint('remaining', { mode: 'number' }).notNull(),
    minOrderAmount: bigint('min_order_amount', { mode: 'number' }).notNull().default(0),
    regionId: integer('region_id').references(() => regions.id),
    gpuModel: text('gpu_model'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The wallet's order (ending soonest, id breaking ties) straight from the index. Migration
    // 0022 adds INCLUDE (remaining): the wallet's filters and figures then read the index alone.
    index('vouchers_user').on(t.userId, t.expiresAt, t.id),
    // Vouchers after the tally's settled id (the wallet's exact total, platform/db/tallies.ts).
    index('vouchers_user_id').on(t.userId, t.id),
    index('vouchers_config').on(t.configId, t.userId),
    // The notices task's scans (issue 31): recently issued, and ending soon.
    index('vouchers_created').on(t.createdAt),
    index('vouchers_expires').on(t.expiresAt),
    check('vouchers_remaining', sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.amount}`),
  ],
);

/**
 * The wallet's figures kept per user and expiry day (issue 33: the statistics read all 10,010 of
 * the largest customer's vouchers on every view). `day` is `voucher_expiry_day(expires_at)`, a
 * UTC day; `live` counts the vouchers still holding value, `live_value` what they hold, `used`
 * those spent to 0. Written only by the triggers on `vouchers` (migration 0027), as signed
 * deltas appended per statement, never updated, so no write waits on another;
 * `vouchers.compact-day-totals` folds each user's rows of a day into one.
 */
export const voucherDayTotals = pgTable(
  'voucher_day_totals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    day: timestamp('day', { withTimezone: true }).notNull(),
    live: integer('live').notNull(),
    liveValue: bigint('live_value', { mode: 'number' }).notNull(),
    used: integer('used').notNull(),
  },
  (t) => [index('voucher_day_totals_user').on(t.userId, t.day)],
);

/** A batch distribution (SPEC.md §7 Distribution); `request_id` makes executing it idempotent. */
export const voucherDistributions = pgTable('voucher_distributions', {
  id: serial('id').primaryKey(),
  requestId: text('request_id').notNull().unique(),
  configId: integer('config_id')
    .notNull()
    .references(() => voucherConfigs.id),
  target: jsonb('target').notNull(),
  targetCount: integer('target_count').notNull().default(0),
  issuedCount: integer('issued_count').notNull().default(0),
  remark: text('remark').notNull().default(''),
  adminId: integer('admin_id').references(() => admins.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who got what in a distribution: one voucher per user per distribution. */
export const voucherDistributionItems = pgTable(
  'voucher_distribution_items',
  {
    distributionId: integer('distribution_id')
      .notNull()
      .references(() => voucherDistributions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    voucherId: bigint('voucher_id', { mode: 'number' })
      .notNull()
      .references(() => vouchers.id),
  },
  (t) => [primaryKey({ columns: [t.distributionId, t.userId] })],
);
