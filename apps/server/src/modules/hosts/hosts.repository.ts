import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  isNotNull,
  ne,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { containing } from '../../platform/db/like.ts';
import { gpuSkus } from './catalog.tables.ts';
import { LOCAL_DRIVER_KINDS } from './drivers/capabilities.ts';
import { countGpuStates, type GpuState, gpuState, sumGpuStates } from './gpu-states.repository.ts';
import { type HostDriverKind, type HostStatus, hostGpus, hostPorts, hosts, regions } from './hosts.tables.ts';
import { filteredPage, firstPage } from './hosts-page.repository.ts';

export type HostRow = typeof hosts.$inferSelect;
export type SkuRow = typeof gpuSkus.$inferSelect;
export type GpuRow = typeof hostGpus.$inferSelect;
export type GpuWithState = GpuRow & { state: GpuState };

export interface HostCounts {
  gpuTotal: number;
  gpuIdle: number;
  gpuAllocated: number;
  gpuReserved: number;
  portTotal: number;
  portAllocated: number;
}

export interface HostListRow extends HostRow, HostCounts {
  regionName: string;
  skus: SkuRow[];
}

export interface HostFilter {
  keyword?: string;
  regionId?: number;
  driver?: HostDriverKind;
  status?: HostStatus;
  ids?: number[];
}

/**
 * The ports a host hands out: its whole range on a local host (the pool's rows are written the
 * first time one is needed, so counting rows said "0 / 0" on hosts that had never placed an
 * instance); none on a provider's (vast.ai) host, whose ports the provider maps.
 */
export const portPoolSize = (h: Pick<HostRow, 'driver' | 'portRangeStart' | 'portRangeEnd'>) =>
  LOCAL_DRIVER_KINDS.includes(h.driver) ? Math.max(0, h.portRangeEnd - h.portRangeStart + 1) : 0;

export function createHostsRepository({ db }: { db: DbOrTx }) {
  const where = (f: HostFilter): SQL | undefined =>
    and(
      f.keyword ? ilike(hosts.name, containing(f.keyword)) : undefined,
      f.regionId ? eq(hosts.regionId, f.regionId) : undefined,
      f.driver ? eq(hosts.driver, f.driver) : undefined,
      f.status ? eq(hosts.status, f.status) : undefined,
      f.ids ? inArray(hosts.id, f.ids.length ? f.ids : [-1]) : undefined,
    );

  return {
    async list(
      f: HostFilter,
      page?: { page: number; size: number },
    ): Promise<{ rows: HostListRow[]; total: number }> {
      // The page as the screen opens it (no filter): prepared statements, the total with the rows.
      const { rows, total, skus } =
        page && !f.keyword && !f.regionId && !f.driver && !f.status && !f.ids
          ? await firstPage(db, page)
          : await filteredPage(db, where(f), page);
      return {
        total,
        // Drizzle's flat rows, extended in place: spreading a row into a new object made objects
        // V8 handles slowly, a tenth of the page's CPU (issue 33).
        rows: rows.map((r) =>
          Object.assign(r, {
            gpuTotal: Number(r.gpus.total),
            gpuIdle: Number(r.gpus.idle),
            gpuAllocated: Number(r.gpus.occupied),
            gpuReserved: Number(r.gpus.reserved),
            portTotal: portPoolSize(r),
            portAllocated: Number(r.portsHeld),
            skus: skus.filter((s) => s.hostId === r.id),
          }),
        ),
      };
    },

    async find(id: number): Promise<HostRow | undefined> {
      const [row] = await db.select().from(hosts).where(eq(hosts.id, id));
      return row;
    },

    async findByName(name: string): Promise<HostRow | undefined> {
      const [row] = await db.select().from(hosts).where(eq(hosts.name, name));
      return row;
    },

    async insert(values: typeof hosts.$inferInsert): Promise<HostRow | undefined> {
      const [row] = await db.insert(hosts).values(values).returning();
      return row;
    },

    /** Changes columns of a host and answers the row as it is now. */
    async update(id: number, set: Partial<typeof hosts.$inferInsert>): Promise<HostRow | undefined> {
      const [row] = await db.update(hosts).set(set).where(eq(hosts.id, id)).returning();
      return row;
    },

    /** Changes columns of a host, answering nothing. */
    async set(id: number, set: Partial<typeof hosts.$inferInsert>) {
      await db.update(hosts).set(set).where(eq(hosts.id, id));
    },

    async delete(id: number) {
      await db.delete(hosts).where(eq(hosts.id, id));
    },

    /** Local (docker or simulated) hosts that are not disabled. */
    localHostsInUse(): Promise<HostRow[]> {
      return db
        .select()
        .from(hosts)
        .where(and(inArray(hosts.driver, LOCAL_DRIVER_KINDS), ne(hosts.status, 'DISABLED')));
    },

    async regionExists(id: number): Promise<boolean> {
      const [row] = await db.select({ id: regions.id }).from(regions).where(eq(regions.id, id));
      return Boolean(row);
    },

    /** The host's GPUs, each with its state by the one definition (`gpuState`). */
    gpus(hostId: number): Promise<GpuWithState[]> {
      return db
        .select({ ...getTableColumns(hostGpus), state: gpuState() })
        .from(hostGpus)
        .where(eq(hostGpus.hostId, hostId))
        .orderBy(asc(hostGpus.index));
    },

    async sku(id: number): Promise<SkuRow | null> {
      const [sku] = await db.select().from(gpuSkus).where(eq(gpuSkus.id, id));
      return sku ?? null;
    },

    skus(hostId: number): Promise<SkuRow[]> {
      return db.select().from(gpuSkus).where(eq(gpuSkus.hostId, hostId)).orderBy(asc(gpuSkus.id));
    },

    async allocatedCounts(hostId: number) {
      const [g] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(hostGpus)
        .where(and(eq(hostGpus.hostId, hostId), isNotNull(hostGpus.instanceId)));
      const [p] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(hostPorts)
        .where(and(eq(hostPorts.hostId, hostId), isNotNull(hostPorts.instanceId)));
      return { gpus: g?.n ?? 0, ports: p?.n ?? 0 };
    },

    /** The first active local host (docker, else simulated) whose region passes `regionIds`. */
    async firstLocalHost(regionIds: number[]): Promise<HostRow | undefined> {
      const [row] = await db
        .select()
        .from(hosts)
        .where(
          and(
            eq(hosts.status, 'ACTIVE'),
            inArray(hosts.driver, LOCAL_DRIVER_KINDS),
            regionIds.length ? inArray(hosts.regionId, regionIds) : undefined,
          ),
        )
        .orderBy(desc(sql`${hosts.driver} = 'docker'`), asc(hosts.id))
        .limit(1);
      return row;
    },

    async statistics() {
      const byStatus = await db
        .select({ key: hosts.status, n: sql<number>`count(*)::int` })
        .from(hosts)
        .groupBy(hosts.status);
      const byDriver = await db
        .select({ key: hosts.driver, n: sql<number>`count(*)::int` })
        .from(hosts)
        .groupBy(hosts.driver);
      const [probe] = await db
        .select({
          reachable: sql<number>`count(*) filter (where ${hosts.lastProbeOk})::int`,
          unreachable: sql<number>`count(*) filter (where not ${hosts.lastProbeOk})::int`,
          never: sql<number>`count(*) filter (where ${hosts.lastProbeOk} is null)::int`,
        })
        .from(hosts);
      const gpus = sumGpuStates(await countGpuStates(db));
      const [ports] = await db
        .select({ allocated: sql<number>`count(*)::int` })
        .from(hostPorts)
        .where(isNotNull(hostPorts.instanceId));
      const pools = await db
        .select({
          driver: hosts.driver,
          portRangeStart: hosts.portRangeStart,
          portRangeEnd: hosts.portRangeEnd,
        })
        .from(hosts);
      const portTotal = pools.reduce((a, h) => a + portPoolSize(h), 0);
      return {
        byStatus,
        byDriver,
        probe,
        gpus,
        ports: { total: portTotal, allocated: ports?.allocated ?? 0 },
      };
    },
  };
}
