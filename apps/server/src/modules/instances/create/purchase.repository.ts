import { INSTANCE_CONTAINER_PORTS, type InstanceStatus } from '@gpu/shared';
import { type Placeholder, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { preparedStatement } from '../../../platform/db/prepared.ts';
import { gpuSkus, images } from '../../hosts/catalog.tables.ts';
import { hosts, regions } from '../../hosts/hosts.tables.ts';
import { freePortsPicked, idleGpusPicked } from '../../hosts/index.ts';
import { accounts } from '../../ledger/ledger.tables.ts';
import { marketRowsQuery, type TenantScope, usableImage } from '../../market/index.ts';
import { packagePricesColumn } from '../../pricing/index.ts';
import type { InstanceRow } from '../instances.repository.ts';
import { instances } from '../instances.tables.ts';

const param = sql.placeholder;

/**
 * A create's first statement (`shareSkuForCreate`), built once. Its one SKU is an array of one
 * placeholder, not an array placeholder: PostgreSQL's generic plan then counts on one SKU (and its
 * host's GPUs), not ten, and is kept. Priced for ten, it was planned afresh for every create, a
 * millisecond of PostgreSQL each (issue 33).
 */
const shareSkuStatement = preparedStatement('instances_share_sku', (db) =>
  marketRowsQuery(
    db,
    { tenantId: param('tenantId'), regionIds: param('regionIds') },
    sql`array[${param('skuId')}::int]`,
    {
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
    },
  ).for('share', { of: hosts }),
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
      // The user's container ports on the ports after those two, in the order asked; any left
      // without one (a pool being filled) are topped up by the caller.
      extraPorts: sql`(select coalesce(jsonb_agg(jsonb_build_object('containerPort', c.port, 'hostPort', t.ports[c.ord + 2])
          order by c.ord) filter (where t.ports[c.ord + 2] is not null), '[]'::jsonb)
        from taken t, unnest(${param('extraContainerPorts')}::int[]) with ordinality as c(port, ord))`,
    })
    .returning();
});

/** A create's two statements: the machine with its host share-locked, then the placed insert. */
export function createPurchaseRepository({ db }: { db: DbOrTx }) {
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
        skuId: q.skuId,
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
     * id drawn first, the host's idle GPUs and lowest free ports taken for it (SSH, JupyterLab,
     * then one per extra container port, ascending; `idleGpusPicked`,
     * `freePortsPicked`: concurrent creates take different rows without waiting, and each pick
     * runs once), the row inserted with them and its first event added: one round trip where
     * insert, allocate, record and event took four (issue 15). The caller throws (rolling all of it back) when the row holds
     * fewer GPUs than asked.
     */
    async insertPlaced(
      values: PlacedValues,
      p: {
        extraContainerPorts: number[];
        event: { to: InstanceStatus; actor: string; reason: string; at: Date };
      },
    ): Promise<InstanceRow> {
      const [row] = await insertPlacedStatement(db, {
        ...values,
        portCount: INSTANCE_CONTAINER_PORTS.length + p.extraContainerPorts.length,
        extraContainerPorts: p.extraContainerPorts,
        eventTo: p.event.to,
        eventActor: p.event.actor,
        eventReason: p.event.reason,
        eventAt: p.event.at.toISOString(),
      });
      if (!row) throw new Error('instance insert returned no row');
      return row;
    },
  };
}
