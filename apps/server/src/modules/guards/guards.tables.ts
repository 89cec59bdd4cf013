import { bigint, boolean, integer, pgTable, smallint, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.ts';
import { instances } from '../instances/instances.tables.ts';

/**
 * An instance's guards (issue 31): its own idle settings (or none: `idleCustom` false follows the
 * account default), the idle clock's reset (保持运行) and the warning sent for the current idle
 * stretch, the scheduled shutdown and its warning, and the per-run spending cap (units). The
 * check writes the warning columns with conditional updates, so replicas warn once.
 */
export const guardInstanceSettings = pgTable('guard_instance_settings', {
  instanceId: bigint('instance_id', { mode: 'number' })
    .primaryKey()
    .references(() => instances.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  idleCustom: boolean('idle_custom').notNull().default(false),
  idleEnabled: boolean('idle_enabled').notNull().default(false),
  idleThreshold: smallint('idle_threshold').notNull().default(5),
  idleMinutes: integer('idle_minutes').notNull().default(60),
  warnMinutes: integer('warn_minutes').notNull().default(10),
  /** 保持运行 or a settings change: the idle window starts no earlier than this. */
  idleResetAt: timestamp('idle_reset_at', { withTimezone: true }),
  /** When the current idle stretch's warning went out (null: none pending). */
  idleWarnedAt: timestamp('idle_warned_at', { withTimezone: true }),
  scheduleAt: timestamp('schedule_at', { withTimezone: true }),
  scheduleHours: integer('schedule_hours'),
  /** The shutdown time whose warning went out. */
  scheduleWarnedFor: timestamp('schedule_warned_for', { withTimezone: true }),
  spendingCap: bigint('spending_cap', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The account's guards: the idle default (pay-as-you-go instances without their own) and the caps. */
export const guardAccountSettings = pgTable('guard_account_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  idleEnabled: boolean('idle_enabled').notNull().default(false),
  idleThreshold: smallint('idle_threshold').notNull().default(5),
  idleMinutes: integer('idle_minutes').notNull().default(60),
  warnMinutes: integer('warn_minutes').notNull().default(10),
  /** Units per Asia/Shanghai day / month; null: no cap. */
  dailyCap: bigint('daily_cap', { mode: 'number' }),
  monthlyCap: bigint('monthly_cap', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
