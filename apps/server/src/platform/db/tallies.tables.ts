import { bigint, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Per-user row counts of append-only tables (bill lines, recharge orders, vouchers) up to a
 * settled id (tallies.ts), so a list's total does not count a large customer's rows again on
 * every request (issue 33). Keys are the immutable columns its filters use ('' when unused).
 */
export const rowTallies = pgTable(
  'row_tallies',
  {
    tally: text('tally').notNull(),
    userId: integer('user_id').notNull(),
    /** 0 for a table without a tenant column. */
    tenantId: integer('tenant_id').notNull(),
    k1: text('k1').notNull(),
    k2: text('k2').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tally, t.userId, t.tenantId, t.k1, t.k2] })],
);

/** How far each tally has counted: every row with an id up to `doneUpto` is in row_tallies. */
export const rowTallyState = pgTable('row_tally_state', {
  tally: text('tally').primaryKey(),
  doneUpto: bigint('done_upto', { mode: 'number' }).notNull(),
});

/** The table's highest visible id at `takenAt`: counted up to once no row below it can still commit. */
export const rowTallyMarks = pgTable(
  'row_tally_marks',
  {
    tally: text('tally').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    upto: bigint('upto', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tally, t.takenAt] })],
);

/**
 * The id of every 1,000th row (0th, 1,000th, …, ascending id) of a user's rows in a tally that
 * keeps bookmarks, counted with the tally: a page in the middle of a long list seeks to the
 * nearest one below it instead of skipping every row before it (paging.ts).
 */
export const rowTallyBookmarks = pgTable(
  'row_tally_bookmarks',
  {
    tally: text('tally').notNull(),
    userId: integer('user_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
    nth: bigint('nth', { mode: 'number' }).notNull(),
    id: bigint('id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tally, t.userId, t.tenantId, t.nth] })],
);
