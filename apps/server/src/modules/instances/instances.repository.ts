import type { InstanceStatus } from '@gpu/shared';
import { and, count, desc, eq, inArray, isNull, lt, lte, or, type Placeholder, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { accounts } from '../billing/billing.tables.ts';
import { freePortsPicked, idleGpusPicked } from '../hosts/allocation.repository.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { usableImage } from '../market/images.repository.ts';
import { marketRowsQuery, type TenantScope } from '../market/market.repository.ts';
import { gpuSkus, images } from '../market/market.tables.ts';
import { userNotices } from '../notices/notices.tables.ts';
import { packagePricesColumn } from '../pricing/pricing.repository.ts';
import { TRANSITIONAL } from './instances.models.ts';
import { billingRecords, instanceEvents, instances } from './instances.tables.ts';

export type InstanceRow = typeof instances.$inferSelect;
export type InstanceWithPlace = InstanceRow & {
  hostName: string;
  publicAddress: string;
  regionName: string;
  hostDriver: string;
};

const withPlace = {
  row: instances,
  hostName: hosts.name,
  publicAddress: hosts.publicAddress,
  hostDriver: hosts.driver,
  regionName: regions.name,
};
const flatten = (r: {
  row: InstanceRow;
  hostName: string;
  publicAddress: string;
  hostDriver: string;
  regionName: string;
}) => ({
  ...r.row,
  hostName: r.hostName,
  publicAddress: r.publicAddress,
  hostDriver: r.hostDriver,
  regionName: r.regionName,
});

const param = sql.placeholder;

/** A create's first statement (`shareSkuForCreate`), built once. */
const shareSkuStatement = preparedStatement('instances_share_sku', (db) =>
  marketRowsQuery(db, { tenantId: param('tenantId'), regionIds: param('regionIds') }, param('skuIds'), {
    host: {
      id: hosts.id,
      publicAddress: hosts.publicAddress,
      portRangeStart: hosts.portRangeStart,
      portRangeEnd: hosts.portRangeEnd,
    },
    platformPrices: packagePricesColumn(gpuSkus.gpuModel, regions.id),
    available: sql<
      string | null
    >`(select ${accounts.available} from ${accounts} where ${accounts.userId} = ${param('userId')})`,
    imageUsable: sql<boolean>`exists (select 1 from ${images} where ${usableImage(param('imageUrl'), gpuSkus.gpuBrand)})`,
  }).for('share', { of: hosts }),
);

/** The columns a create sets: `insertPlaced`'s statement has a placeholder for each. */
const PLACED_COLUMNS = [
  'tenantId',
  'userId',
  'hostId',
  'skuId',
  'regionId',
  'name',
  'image',
  'gpuModel',
  'gpuCount',
  'billingType',
  'hourlyRate',
  'packageUnitPrice',
  'discountRateBp',
  'duration',
  'status',
  'rootPasswordEnc',
  'jupyterTokenEnc',
  'transitionAt',
  'idempotencyKey',
  'voucherId',
  'voucherHeld',
  'voucherUsed',
  'charged',
  'createdAt',
] as const satisfies readonly (keyof typeof instances.$inferInsert)[];
// transitionAt never null here: a timestamp placeholder's encoder cannot take null (prepared.ts).
export type PlacedValues = Required<Pick<typeof instances.$inferInsert, (typeof PLACED_COLUMNS)[number]>> & {
  transitionAt: Date;
};

/** `insertPlaced`'s statement, built once. */
const insertPlacedStatement = preparedStatement('instances_insert_placed', (db) => {
  const hostId = param('hostId');
  const at = sql`${param('eventAt')}::timestamptz`;
  const id = sql`(select id from new_id)`;
  const newId = db
    .$with('new_id', { id: sql<number>`id` })
    .as(sql`select nextval(pg_get_serial_sequence('instances', 'id')) as id`);
  const gpu = db.$with('gpu', { index: sql<number>`index` }).as(sql`
    update host_gpus set instance_id = ${id}, updated_at = ${at}
    where ${idleGpusPicked(db, hostId, param('gpuCount'))}
    returning index`);
  const port = db.$with('port', { port: sql<number>`port` }).as(sql`
    update host_ports set instance_id = ${id}
    where ${freePortsPicked(db, hostId, param('portCount'))}
    returning port`);
  const taken = db.$with('taken', { gpus: sql`gpus`, ports: sql`ports` }).as(sql`
    select coalesce((select jsonb_agg(index order by index) from gpu), '[]'::jsonb) as gpus,
           coalesce((select array_agg(port order by port) from port), '{}'::int[]) as ports`);
  const event = db.$with('event', { one: sql`one` }).as(sql`
    insert into instance_events (instance_id, from_status, to_status, actor, reason, created_at)
    values (${id}, null, ${param('eventTo')}, ${param('eventActor')}, ${param('eventReason')}, ${at})
    returning 1 as one`);
  return db
    .with(newId, gpu, port, taken, event)
    .insert(instances)
    .values({
      ...(Object.fromEntries(PLACED_COLUMNS.map((c) => [c, param(c)])) as Record<
        (typeof PLACED_COLUMNS)[number],
        Placeholder
      >),
      id: sql`${id}`,
      gpuIndices: sql`(select gpus from taken)`,
      sshPort: sql`(select ports[1] from taken)`,
      jupyterPort: sql`(select ports[2] from taken)`,
    })
    .returning();
});

export function createInstancesRepository({ db }: { db: DbOrTx }) {
  const placed = () =>
    db
      .select(withPlace)
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .innerJoin(regions, eq(regions.id, instances.regionId));

  return {
    /**
     * A create's first statement: the SKU's market row as a quote reads it (`marketRowsQuery`:
     * listed, its host active, visible to the tenant) with its host share-locked (lock order,
     * ledger.ts: allocations run side by side, a host change waits for them), and what the create
     * checks next to it: the platform's package prices, the buyer's available balance and whether
     * the image is enabled for the SKU's GPU brand. One round trip where quote, package price and
     * host lock took three (issue 15). Undefined when the tenant has no such machine.
     */
    async shareSkuForCreate(q: { scope: TenantScope; skuId: number; userId: number; imageUrl: string }) {
      const [r] = await shareSkuStatement(db, {
        tenantId: q.scope.tenantId,
        regionIds: q.scope.regionIds,
        skuIds: [q.skuId],
        userId: q.userId,
        imageUrl: q.imageUrl,
      });
      if (!r) return undefined;
      const { host, platformPrices, available, imageUsable, ...row } = r;
      return {
        row,
        host,
        platformPrices,
        available: available === null ? null : Number(available),
        imageUsable,
      };
    },

    /**
     * A new instance, inserted already placed on its (share-locked) host, in one statement: its
     * id drawn first, the host's idle GPUs and lowest free ports taken for it (`idleGpusPicked`,
     * `freePortsPicked`: concurrent creates take different rows without waiting, and each pick
     * runs once), the row inserted with them and its first event added: one round trip where
     * insert, allocate, record and event took four (issue 15). The caller throws (rolling all of it back) when the row holds
     * fewer GPUs than asked.
     */
    async insertPlaced(
      values: PlacedValues,
      p: { portCount: number; event: { to: InstanceStatus; actor: string; reason: string; at: Date } },
    ): Promise<InstanceRow> {
      const [row] = await insertPlacedStatement(db, {
        ...values,
        portCount: p.portCount,
        eventTo: p.event.to,
        eventActor: p.event.actor,
        eventReason: p.event.reason,
        eventAt: p.event.at.toISOString(),
      });
      if (!row) throw new Error('instance insert returned no row');
      return row;
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
      return r && flatten(r);
    },
    /** The user's own instance of this tenant; anything else is "not found". */
    async findOwned(id: number, userId: number, tenantId: number): Promise<InstanceWithPlace | undefined> {
      const [r] = await placed().where(
        and(eq(instances.id, id), eq(instances.userId, userId), eq(instances.tenantId, tenantId)),
      );
      return r && flatten(r);
    },
    async listForUser(
      userId: number,
      tenantId: number,
      q: { page: number; size: number; status?: InstanceStatus[] },
    ) {
      const where = and(
        eq(instances.userId, userId),
        eq(instances.tenantId, tenantId),
        q.status ? inArray(instances.status, q.status) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        placed()
          .where(where)
          .orderBy(desc(instances.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        db.select({ n: count() }).from(instances).where(where),
      ]);
      return { rows: rows.map(flatten), total: total?.n ?? 0 };
    },
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
    async bill(values: typeof billingRecords.$inferInsert | (typeof billingRecords.$inferInsert)[]) {
      if (Array.isArray(values) && values.length === 0) return;
      await db.insert(billingRecords).values(Array.isArray(values) ? values : [values]);
    },

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
    /** The owner's notice of an admin action, written with the action's end state. */
    async notify(values: typeof userNotices.$inferInsert) {
      await db.insert(userNotices).values(values);
    },
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
    stoppedSince: (before: Date) =>
      db
        .select({ id: instances.id, stoppedAt: instances.stoppedAt, warning: instances.warning })
        .from(instances)
        .where(and(eq(instances.status, 'STOPPED'), lte(instances.stoppedAt, before))),
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
