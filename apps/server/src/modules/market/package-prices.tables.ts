import { bigint, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { regions } from '../hosts/hosts.tables.ts';

/** Package prices of one GPU per period (SPEC.md §3), in 0.0001-yuan units. */
export const packagePrices = pgTable(
  'package_prices',
  {
    id: serial('id').primaryKey(),
    gpuType: text('gpu_type').notNull(),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull().default('local'),
    dailyPrice: bigint('daily_price', { mode: 'number' }).notNull(),
    weeklyPrice: bigint('weekly_price', { mode: 'number' }).notNull(),
    monthlyPrice: bigint('monthly_price', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('package_prices_key').on(t.gpuType, t.regionId, t.platform)],
);
