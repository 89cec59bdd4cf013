import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { ACCRUING } from '../../instances/index.ts';
import { instances } from '../../instances/instances.tables.ts';
import { accounts } from '../../ledger/ledger.tables.ts';
import { notificationSettings as settings } from '../../notices/notifications.tables.ts';

/** The low-balance notice's reads and its once-per-dip switch (notification_settings). */
export function createLowBalanceRepository({ db }: { db: DbOrTx }) {
  const threshold = (defaultUnits: number) =>
    sql<number>`coalesce(${settings.lowBalanceThreshold}, ${defaultUnits})`;
  return {
    /**
     * Accounts under their owner's threshold (0: off) not yet told of this dip, while something
     * spends them (a pay-as-you-go instance accruing): a new account at ¥0 is not "running low".
     */
    dipped: (defaultUnits: number, limit: number) =>
      db
        .select({ userId: accounts.userId, available: accounts.available })
        .from(accounts)
        .leftJoin(settings, eq(settings.userId, accounts.userId))
        .where(
          and(
            lt(accounts.available, threshold(defaultUnits)),
            gt(threshold(defaultUnits), 0),
            sql`coalesce(${settings.lowBalanceBelow}, false) = false`,
            sql`exists (select 1 from ${instances} where ${instances.userId} = ${accounts.userId} and ${instances.billingType} = 'hourly' and ${inArray(instances.status, ACCRUING)})`,
          ),
        )
        .limit(limit),
    /**
     * Marks the dip told, once: only a row not yet `below` changes (a second replica's statement
     * waits on the row, then finds it below and answers nothing). Answers the dip's number.
     */
    async markDipped(userId: number): Promise<number | null> {
      const [row] = await db
        .insert(settings)
        .values({ userId, channels: {}, lowBalanceBelow: true, lowBalanceAlerts: 1 })
        .onConflictDoUpdate({
          target: settings.userId,
          set: { lowBalanceBelow: true, lowBalanceAlerts: sql`${settings.lowBalanceAlerts} + 1` },
          setWhere: eq(settings.lowBalanceBelow, false),
        })
        .returning({ alerts: settings.lowBalanceAlerts });
      return row?.alerts ?? null;
    },
    /** Dips that ended (the balance is back at the threshold): the next dip is told again. */
    async rearm(defaultUnits: number) {
      const done = await db
        .update(settings)
        .set({ lowBalanceBelow: false })
        .where(
          and(
            eq(settings.lowBalanceBelow, true),
            sql`exists (select 1 from ${accounts} where ${accounts.userId} = ${settings.userId} and ${accounts.available} >= ${threshold(defaultUnits)})`,
          ),
        )
        .returning({ userId: settings.userId });
      return done.length;
    },
    /** Pay-as-you-go instances accruing for these users: their rates make the runway. */
    accruing: (userIds: number[]) =>
      userIds.length === 0
        ? Promise.resolve([])
        : db
            .select()
            .from(instances)
            .where(
              and(
                inArray(instances.userId, userIds),
                eq(instances.billingType, 'hourly'),
                inArray(instances.status, ACCRUING),
              ),
            ),
  };
}
