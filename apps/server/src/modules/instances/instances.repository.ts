import type { InstanceStatus } from '@gpu/shared';
import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { type BillInsert, insertBillLines } from './bill-lines.repository.ts';
import { TRANSITIONAL } from './instances.models.ts';
import type { InstanceRow, InstanceWithPlace } from './instances.place.ts';
import { withPlace } from './instances.place.ts';
import { instanceEvents, instances } from './instances.tables.ts';
import { type InstanceListQuery, listInstancesOf } from './instances-list.repository.ts';

export type { InstanceListed, InstanceRow, InstanceWithPlace } from './instances.place.ts';

export function createInstancesRepository({ db }: { db: DbOrTx }) {
  const placed = () =>
    db
      .select(withPlace)
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .innerJoin(regions, eq(regions.id, instances.regionId));

  return {
    /** Whether any instance (running or long released) was ever placed on this host. */
    async placedOnHost(hostId: number): Promise<boolean> {
      return (await db.$count(instances, eq(instances.hostId, hostId))) > 0;
    },
    async insert(values: typeof instances.$inferInsert): Promise<InstanceRow> {
      const [row] = await db.insert(instances).values(values).returning();
      if (!row) throw new Error('instance insert returned no row');
      return row;
    },
    /** The instance a purchase with this `Idempotency-Key` already made, if any. */
    async findByIdempotencyKey(userId: number, key: string): Promise<InstanceRow | undefined> {
      const [row] = await db
        .select()
        .from(instances)
        .where(and(eq(instances.userId, userId), eq(instances.idempotencyKey, key)));
      return row;
    },
    /** Row lock for the rest of the transaction; every state change goes through it. */
    async lock(id: number): Promise<InstanceRow | undefined> {
      const [row] = await db.select().from(instances).where(eq(instances.id, id)).for('update');
      return row;
    },
    async find(id: number): Promise<InstanceWithPlace | undefined> {
      const [r] = await placed().where(eq(instances.id, id));
      return r;
    },
    /** The user's own instance of this tenant; anything else is "not found". */
    async findOwned(id: number, userId: number, tenantId: number): Promise<InstanceWithPlace | undefined> {
      const [r] = await placed().where(
        and(eq(instances.id, id), eq(instances.userId, userId), eq(instances.tenantId, tenantId)),
      );
      return r;
    },
    listForUser: (userId: number, tenantId: number, q: InstanceListQuery) =>
      listInstancesOf(db, userId, tenantId, q),
    /** The row as updated (undefined when there is no such instance). */
    async update(
      id: number,
      patch: Partial<typeof instances.$inferInsert>,
    ): Promise<InstanceRow | undefined> {
      const [row] = await db
        .update(instances)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(instances.id, id))
        .returning();
      return row;
    },
    /**
     * Moves the instance from `from` to `event.to` with `patch` and records the event, in one
     * statement, only if it is still in `from` (the UPDATE's row lock keeps any other transition
     * out meanwhile): what a lock, update and event in a transaction did in four round trips.
     * True when it moved.
     */
    async transitionIf(
      id: number,
      from: InstanceStatus,
      patch: Partial<typeof instances.$inferInsert>,
      event: { to: InstanceStatus; actor: string; reason: string; at: Date },
    ): Promise<boolean> {
      const moved = db
        .update(instances)
        .set({ ...patch, status: event.to, updatedAt: sql`now()` })
        .where(and(eq(instances.id, id), eq(instances.status, from)))
        .returning({ id: instances.id });
      const res = await db.execute(sql`
        with moved as (${moved.getSQL()})
        insert into instance_events (instance_id, from_status, to_status, actor, reason, created_at)
        select id, ${from}, ${event.to}, ${event.actor}, ${event.reason}, ${event.at.toISOString()}::timestamptz
        from moved
        returning instance_id`);
      return (res as unknown as { rows: unknown[] }).rows.length > 0;
    },
    async event(
      instanceId: number,
      from: InstanceStatus | null,
      to: InstanceStatus,
      actor: string,
      reason?: string,
      at?: Date,
    ) {
      await db.insert(instanceEvents).values({
        instanceId,
        fromStatus: from,
        toStatus: to,
        actor,
        reason: reason ?? null,
        ...(at ? { createdAt: at } : {}),
      });
    },
    events: (instanceId: number) =>
      db
        .select()
        .from(instanceEvents)
        .where(eq(instanceEvents.instanceId, instanceId))
        .orderBy(instanceEvents.id),
    /**
     * Writes bill lines, each numbered (OD… for orders, BL… for bills) from its creation time, and
     * moves each owner's `spent` by their amounts in the same statement. A line with an amount
     * follows its charge or refund, so the account row is already locked by this transaction.
     */
    bill: (values: BillInsert | BillInsert[]) => insertBillLines(db, values),

    /**
     * Claims an instance in one of the job states (JOB_STATES: a create or a power off / on /
     * release under way) for a worker until `until`, when nobody holds it (no claim, or one left
     * to expire). One statement, so two workers never both get it.
     */
    async claim(id: number, now: Date, until: Date): Promise<InstanceRow | undefined> {
      const [row] = await db
        .update(instances)
        .set({ claimedUntil: until, updatedAt: sql`now()` })
        .where(
          and(
            eq(instances.id, id),
            inArray(instances.status, TRANSITIONAL),
            or(isNull(instances.claimedUntil), lt(instances.claimedUntil, now)),
          ),
        )
        .returning();
      return row;
    },
    /** Instances in a job state that no worker holds, oldest first (the job sweep). */
    unclaimed: async (now: Date, limit: number) =>
      (
        await db
          .select({ id: instances.id })
          .from(instances)
          .where(
            and(
              inArray(instances.status, TRANSITIONAL),
              or(isNull(instances.claimedUntil), lt(instances.claimedUntil, now)),
            ),
          )
          .orderBy(instances.id)
          .limit(limit)
      ).map((r) => r.id),
    /** The container of a create, recorded before it is started. */
    async saveContainerId(id: number, containerId: string) {
      await db
        .update(instances)
        .set({ containerId, updatedAt: sql`now()` })
        .where(and(eq(instances.id, id), eq(instances.status, 'CREATING')));
    },
    /** Released or failed instances that still hold GPUs or ports (their container was not confirmed gone). */
    finishedHolding: async () =>
      (
        await db
          .select({ id: instances.id })
          .from(instances)
          .where(
            and(
              inArray(instances.status, ['RELEASED', 'FAILED']),
              sql`(exists (select 1 from host_gpus g where g.instance_id = ${instances.id})
                or exists (select 1 from host_ports p where p.instance_id = ${instances.id}))`,
            ),
          )
          .orderBy(instances.id)
      ).map((r) => r.id),
    /** Packages whose time is up and that still run. */
    expired: (now: Date) =>
      db
        .select({ id: instances.id })
        .from(instances)
        .where(
          and(
            sql`${instances.billingType} <> 'hourly'`,
            eq(instances.status, 'RUNNING'),
            lte(instances.expiresAt, now),
          ),
        ),
    transitionalSince: (before: Date) =>
      db
        .select({ id: instances.id })
        .from(instances)
        .where(and(inArray(instances.status, TRANSITIONAL), lt(instances.transitionAt, before))),
    liveIds: async (ids: number[]) =>
      ids.length === 0
        ? []
        : (
            await db
              .select({ id: instances.id })
              .from(instances)
              .where(and(inArray(instances.id, ids), sql`${instances.status} not in ('RELEASED', 'FAILED')`))
          ).map((r) => r.id),
    /** The hosts where this customer has an ended instance (RELEASED or FAILED): where its orphans can be. */
    endedInstanceHostIds: async (userId: number, tenantId: number) =>
      (
        await db
          .selectDistinct({ hostId: instances.hostId })
          .from(instances)
          .where(
            and(
              eq(instances.userId, userId),
              eq(instances.tenantId, tenantId),
              inArray(instances.status, ['RELEASED', 'FAILED']),
            ),
          )
      ).map((r) => r.hostId),
  };
}
