import type { Db } from '../../platform/db/client.ts';
import { runExclusively } from '../../platform/db/exclusive.ts';
import type { Task } from '../../platform/tasks.ts';
import { compactDayTotalsBatch } from './voucher-stats.repository.ts';

/** Users one batch folds, and batches one run takes at most (a bounded transaction). */
const COMPACT_USERS = 1000;
const COMPACT_BATCHES = 50;

/**
 * Folds the wallet figures' appended deltas (voucher_day_totals) into one row per user and day,
 * one replica at a time. Returns how many rows it removed. Without it the table grows by a row
 * per voucher change; readers stay exact either way.
 */
export async function compactVoucherDayTotals(db: Db): Promise<number> {
  let removed = 0;
  await runExclusively(db, 'vouchers:compact-day-totals', async (tx) => {
    for (let batch = 0; batch < COMPACT_BATCHES; batch++) {
      const { gone, kept } = await compactDayTotalsBatch(tx, COMPACT_USERS);
      if (gone === 0) return;
      removed += gone - kept;
    }
  });
  return removed;
}

export const compactVoucherDayTotalsTask = (db: Db): Task => ({
  name: 'vouchers.compact-day-totals',
  intervalMs: 5 * 60_000,
  run: () => compactVoucherDayTotals(db),
});
