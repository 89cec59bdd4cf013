import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { appMeta } from '../../platform/db/meta.tables.ts';
import { gpuSkus, images } from '../hosts/catalog.tables.ts';
import { hosts, regions } from '../hosts/hosts.tables.ts';
import { VASTAI_IMAGES } from '../hosts/index.ts';
import { instances } from '../instances/instances.tables.ts';
import { vastaiOffers, vastaiRentals } from './vastai.tables.ts';

export type OfferRow = typeof vastaiOffers.$inferSelect;
export type RentalRow = typeof vastaiRentals.$inferSelect;

/** The app_meta row holding the last offers refresh (when, and what went wrong). */
export const VASTAI_REFRESH_KEY = 'vastai-offers-refresh';
export interface RefreshState {
  at: string;
  ok: boolean;
  error?: string;
  count?: number;
}

const OVERSEAS_REGION = { name: '海外区', code: 'overseas', sortOrder: 900, overseas: true } as const;
export const VASTAI_HOST_NAME = 'vast.ai';

export function createVastaiRepository({ db }: { db: DbOrTx }) {
  return {
    async replaceOffers(rows: (typeof vastaiOffers.$inferInsert)[]) {
      await db.delete(vastaiOffers);
      for (let i = 0; i < rows.length; i += 200) await db.insert(vastaiOffers).values(rows.slice(i, i + 200));
    },
    offers: () => db.select().from(vastaiOffers).orderBy(asc(vastaiOffers.usdMicrosPerHour)),
    async offer(offerId: number): Promise<OfferRow | undefined> {
      const [row] = await db.select().from(vastaiOffers).where(eq(vastaiOffers.offerId, offerId)).limit(1);
      return row;
    },
    /** Takes the offer off sale; false when another purchase (or a refresh) took it first. */
    async takeOffer(offerId: number): Promise<boolean> {
      const gone = await db
        .delete(vastaiOffers)
        .where(eq(vastaiOffers.offerId, offerId))
        .returning({ offerId: vastaiOffers.offerId });
      return gone.length > 0;
    },
    async refreshState(): Promise<RefreshState | null> {
      const [row] = await db.select().from(appMeta).where(eq(appMeta.key, VASTAI_REFRESH_KEY)).limit(1);
      return (row?.value as RefreshState | undefined) ?? null;
    },
    async saveRefreshState(value: RefreshState) {
      await db
        .insert(appMeta)
        .values({ key: VASTAI_REFRESH_KEY, value })
        .onConflictDoUpdate({ target: appMeta.key, set: { value } });
    },

    /** The vast.ai host row and its (overseas) region, when they exist. */
    async place() {
      const [row] = await db
        .select({
          hostId: hosts.id,
          hostStatus: hosts.status,
          regionId: regions.id,
          regionName: regions.name,
          regionEnabled: regions.enabled,
        })
        .from(hosts)
        .innerJoin(regions, eq(regions.id, hosts.regionId))
        .where(eq(hosts.driver, 'vastai'))
        .orderBy(asc(hosts.id))
        .limit(1);
      return row;
    },
    /**
     * First use with a key: the vast.ai host in the first overseas region (made when none
     * exists) and the overseas image catalogue. Idempotent on every replica. True when it made
     * the overseas region (a new market region: the market must be told).
     */
    async ensurePlace(): Promise<boolean> {
      const [overseas] = await db
        .select({ id: regions.id })
        .from(regions)
        .where(eq(regions.overseas, true))
        .orderBy(asc(regions.sortOrder), asc(regions.id))
        .limit(1);
      let regionId = overseas?.id;
      let madeRegion = false;
      if (regionId === undefined) {
        madeRegion =
          (
            await db
              .insert(regions)
              .values(OVERSEAS_REGION)
              .onConflictDoNothing()
              .returning({ id: regions.id })
          ).length > 0;
        const [r] = await db
          .select({ id: regions.id })
          .from(regions)
          .where(eq(regions.code, OVERSEAS_REGION.code));
        regionId = r?.id as number;
      }
      await db
        .insert(hosts)
        .values({ regionId, name: VASTAI_HOST_NAME, driver: 'vastai', settings: {} })
        .onConflictDoNothing();
      await db
        .insert(images)
        .values(
          VASTAI_IMAGES.map((i, k) => ({ ...i, platformType: 'vast.ai', gpuBrand: 'NVIDIA', sortOrder: k })),
        )
        .onConflictDoNothing();
      return madeRegion;
    },
    /** Enabled overseas images, for the offer's CUDA check. */
    overseasImages: () =>
      db
        .select()
        .from(images)
        .where(and(eq(images.platformType, 'vast.ai'), eq(images.enabled, true)))
        .orderBy(asc(images.sortOrder), asc(images.id)),

    /** An unlisted SKU for one rental: instances point at a SKU, an offer is not one. */
    async insertRentalSku(v: {
      hostId: number;
      gpuModel: string;
      memoryGb: number;
      cpuPerGpu: number;
      diskGb: number;
      hourlyPrice: number;
    }) {
      const [row] = await db
        .insert(gpuSkus)
        .values({
          hostId: v.hostId,
          gpuModel: v.gpuModel,
          memoryGb: v.memoryGb,
          cpuPerGpu: v.cpuPerGpu,
          systemDiskGb: v.diskGb,
          dataDiskGb: 0,
          hourlyPrice: v.hourlyPrice,
          listed: false,
        })
        .returning({ id: gpuSkus.id });
      return row?.id as number;
    },
    async insertRental(v: typeof vastaiRentals.$inferInsert) {
      await db.insert(vastaiRentals).values(v);
    },
    async rental(instanceId: number): Promise<RentalRow | undefined> {
      const [row] = await db
        .select()
        .from(vastaiRentals)
        .where(eq(vastaiRentals.instanceId, instanceId))
        .limit(1);
      return row;
    },
    rentals: (instanceIds: number[]) =>
      instanceIds.length === 0
        ? Promise.resolve([] as RentalRow[])
        : db.select().from(vastaiRentals).where(inArray(vastaiRentals.instanceId, instanceIds)),
    /** Overseas instances that should exist on vast.ai (running or stopped), for reconcile. */
    settled: () =>
      db
        .select({
          id: instances.id,
          status: instances.status,
          containerId: instances.containerId,
          hostId: instances.hostId,
        })
        .from(instances)
        .innerJoin(vastaiRentals, eq(vastaiRentals.instanceId, instances.id))
        .where(inArray(instances.status, ['RUNNING', 'STOPPED'])),
    async saveRental(instanceId: number, set: Partial<typeof vastaiRentals.$inferInsert>) {
      await db.update(vastaiRentals).set(set).where(eq(vastaiRentals.instanceId, instanceId));
    },
  };
}
