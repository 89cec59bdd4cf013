import { and, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { postedBySql } from '../instances/index.ts';
import { billingRecords, instances } from '../instances/instances.tables.ts';
import type { AccountGuardRow, InstanceGuardRow } from './guards.models.ts';
import { guardAccountSettings, guardInstanceSettings } from './guards.tables.ts';

type InstanceGuardPatch = Partial<Omit<typeof guardInstanceSettings.$inferInsert, 'instanceId' | 'userId'>>;
type AccountGuardPatch = Partial<Omit<typeof guardAccountSettings.$inferInsert, 'userId'>>;

/** `column IS NOT DISTINCT FROM value`: a conditional update's "still what I read". */
const same = (column: SQL | AnyPgColumn, value: Date | number | null) =>
  value === null
    ? sql`${column} is null`
    : sql`${column} = ${value instanceof Date ? value.toISOString() : value}`;

const instanceCols = {
  id: instances.id,
  userId: instances.userId,
  name: instances.name,
  status: instances.status,
  billingType: instances.billingType,
  runningSince: instances.runningSince,
  hourlyRate: instances.hourlyRate,
  noGpuRate: instances.noGpuRate,
  gpuCount: instances.gpuCount,
};

export function createGuardsRepository({ db }: { db: DbOrTx }) {
  return {
    instanceSettings: async (instanceId: number): Promise<InstanceGuardRow | undefined> =>
      (
        await db.select().from(guardInstanceSettings).where(eq(guardInstanceSettings.instanceId, instanceId))
      )[0],
    accountSettings: async (userId: number): Promise<AccountGuardRow | undefined> =>
      (await db.select().from(guardAccountSettings).where(eq(guardAccountSettings.userId, userId)))[0],
    async saveInstance(instanceId: number, userId: number, patch: InstanceGuardPatch) {
      await db
        .insert(guardInstanceSettings)
        .values({ instanceId, userId, ...patch })
        .onConflictDoUpdate({
          target: guardInstanceSettings.instanceId,
          set: { ...patch, updatedAt: sql`now()` },
        });
    },
    async saveAccount(userId: number, patch: AccountGuardPatch) {
      await db
        .insert(guardAccountSettings)
        .values({ userId, ...patch })
        .onConflictDoUpdate({
          target: guardAccountSettings.userId,
          set: { ...patch, updatedAt: sql`now()` },
        });
    },
    /** The user's instances with guard rows (the console's markers). */
    forUser: (userId: number) =>
      db
        .select({ inst: instanceCols, own: guardInstanceSettings })
        .from(guardInstanceSettings)
        .innerJoin(instances, eq(instances.id, guardInstanceSettings.instanceId))
        .where(and(eq(guardInstanceSettings.userId, userId), eq(instances.status, 'RUNNING'))),
    /**
     * Running instances that some guard may concern: with a guard row of their own, or owned by
     * a user with account settings. (Everything else has nothing to check.)
     */
    candidates: () =>
      db
        .select({ inst: instanceCols, own: guardInstanceSettings, account: guardAccountSettings })
        .from(instances)
        .leftJoin(guardInstanceSettings, eq(guardInstanceSettings.instanceId, instances.id))
        .leftJoin(guardAccountSettings, eq(guardAccountSettings.userId, instances.userId))
        .where(
          and(
            eq(instances.status, 'RUNNING'),
            isNotNull(instances.runningSince),
            or(isNotNull(guardInstanceSettings.instanceId), isNotNull(guardAccountSettings.userId)),
          ),
        )
        .orderBy(instances.id),
    /**
     * Records the idle warning at `now` if the row still holds the warning read (`was`): of two
     * replicas deciding at once, one gets true and sends the notice.
     */
    async markIdleWarned(instanceId: number, userId: number, was: Date | null, now: Date) {
      const rows = await db
        .insert(guardInstanceSettings)
        .values({ instanceId, userId, idleWarnedAt: now })
        .onConflictDoUpdate({
          target: guardInstanceSettings.instanceId,
          set: { idleWarnedAt: now, updatedAt: sql`now()` },
          setWhere: same(guardInstanceSettings.idleWarnedAt, was),
        })
        .returning({ id: guardInstanceSettings.instanceId });
      return rows.length > 0;
    },
    async withdrawIdleWarning(instanceId: number, was: Date) {
      await db
        .update(guardInstanceSettings)
        .set({ idleWarnedAt: null, updatedAt: sql`now()` })
        .where(
          and(
            eq(guardInstanceSettings.instanceId, instanceId),
            same(guardInstanceSettings.idleWarnedAt, was),
          ),
        );
    },
    /** 保持运行: the idle clock starts again now; a pending warning is withdrawn. */
    async resetIdle(instanceId: number, userId: number, now: Date) {
      await db
        .insert(guardInstanceSettings)
        .values({ instanceId, userId, idleResetAt: now, idleWarnedAt: null })
        .onConflictDoUpdate({
          target: guardInstanceSettings.instanceId,
          set: { idleResetAt: now, idleWarnedAt: null, updatedAt: sql`now()` },
        });
    },
    /** Records the scheduled shutdown's warning for `due` once (true: this caller sends it). */
    async markScheduleWarned(instanceId: number, due: Date) {
      const rows = await db
        .update(guardInstanceSettings)
        .set({ scheduleWarnedFor: due, updatedAt: sql`now()` })
        .where(
          and(
            eq(guardInstanceSettings.instanceId, instanceId),
            or(
              isNull(guardInstanceSettings.scheduleWarnedFor),
              sql`${guardInstanceSettings.scheduleWarnedFor} <> ${due.toISOString()}`,
            ),
          ),
        )
        .returning({ id: guardInstanceSettings.instanceId });
      return rows.length > 0;
    },
    /** Takes a schedule that came due (or went stale) off the row, if it is still the one read. */
    async takeSchedule(own: Pick<InstanceGuardRow, 'instanceId' | 'scheduleAt' | 'scheduleHours'>) {
      const rows = await db
        .update(guardInstanceSettings)
        .set({ scheduleAt: null, scheduleHours: null, scheduleWarnedFor: null, updatedAt: sql`now()` })
        .where(
          and(
            eq(guardInstanceSettings.instanceId, own.instanceId),
            same(guardInstanceSettings.scheduleAt, own.scheduleAt),
            same(guardInstanceSettings.scheduleHours, own.scheduleHours),
          ),
        )
        .returning({ id: guardInstanceSettings.instanceId });
      return rows.length > 0;
    },
    /**
     * Pay-as-you-go spend of the users since `since`, up to `now`, in units: the hourly bill
     * lines from then (they tile UTC hours, and Shanghai days and months start on a UTC hour)
     * plus what running instances accrued and metering has not posted yet (whole fen, as it
     * will post it).
     */
    async spentSince(userIds: number[], since: Date, now: Date): Promise<Map<number, number>> {
      const out = new Map<number, number>(userIds.map((u) => [u, 0]));
      if (userIds.length === 0) return out;
      const billed = await db
        .select({
          userId: billingRecords.userId,
          total:
            sql<number>`coalesce(sum(${billingRecords.amount} + ${billingRecords.voucherAmount}), 0)`.mapWith(
              Number,
            ),
        })
        .from(billingRecords)
        .where(
          and(
            inArray(billingRecords.userId, userIds),
            inArray(billingRecords.kind, ['metering', 'nogpu']),
            sql`${billingRecords.meterHour} >= ${since.toISOString()}`,
          ),
        )
        .groupBy(billingRecords.userId);
      const pending = await db
        .select({
          userId: instances.userId,
          total:
            sql<number>`coalesce(sum(greatest(0, ${postedBySql('instances', now)} - ${instances.charged})), 0)`.mapWith(
              Number,
            ),
        })
        .from(instances)
        .where(
          and(
            inArray(instances.userId, userIds),
            eq(instances.billingType, 'hourly'),
            isNotNull(instances.runningSince),
          ),
        )
        .groupBy(instances.userId);
      for (const r of [...billed, ...pending]) out.set(r.userId, (out.get(r.userId) ?? 0) + r.total);
      return out;
    },
  };
}
