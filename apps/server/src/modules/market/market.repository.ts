import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../app/db/client.ts';
import { hostGpus, hosts, regions } from '../hosts/hosts.tables.ts';
import { gpuSkus } from './market.tables.ts';

export interface MarketRow {
  id: number;
  gpuModel: string;
  gpuBrand: string;
  memoryGb: number;
  cpuPerGpu: number;
  systemDiskGb: number;
  dataDiskGb: number;
  hourlyPrice: number;
  hostName: string;
  hostDriver: string;
  cpuModel: string;
  nvidiaDriver: string;
  cudaVersion: string;
  regionId: number;
  regionName: string;
  gpuNum: number;
  gpuIdleNum: number;
}

export interface MarketQuery {
  /** Region ids the tenant shows; empty means all. */
  regionIds: number[];
  page: number;
  size: number;
}

const sameModel = and(eq(hostGpus.hostId, gpuSkus.hostId), eq(hostGpus.model, gpuSkus.gpuModel));

export function createMarketRepository({ db }: { db: DbOrTx }) {
  return {
    /** Listed SKUs on active hosts; GPU counts come from the live allocation table. */
    async list(q: MarketQuery): Promise<{ rows: MarketRow[]; total: number }> {
      const where = and(
        eq(gpuSkus.listed, true),
        eq(hosts.status, 'ACTIVE'),
        q.regionIds.length > 0 ? inArray(regions.id, q.regionIds) : undefined,
      );
      const gpuNum = db.$count(hostGpus, sameModel);
      const gpuIdleNum = db.$count(
        hostGpus,
        and(sameModel, isNull(hostGpus.instanceId), isNull(hostGpus.reservedReason)),
      );
      const [rows, [count]] = await Promise.all([
        db
          .select({
            id: gpuSkus.id,
            gpuModel: gpuSkus.gpuModel,
            gpuBrand: gpuSkus.gpuBrand,
            memoryGb: gpuSkus.memoryGb,
            cpuPerGpu: gpuSkus.cpuPerGpu,
            systemDiskGb: gpuSkus.systemDiskGb,
            dataDiskGb: gpuSkus.dataDiskGb,
            hourlyPrice: gpuSkus.hourlyPrice,
            hostName: hosts.name,
            hostDriver: hosts.driver,
            cpuModel: hosts.cpuModel,
            nvidiaDriver: hosts.nvidiaDriver,
            cudaVersion: hosts.cudaVersion,
            regionId: regions.id,
            regionName: regions.name,
            gpuNum,
            gpuIdleNum,
          })
          .from(gpuSkus)
          .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
          .innerJoin(regions, eq(regions.id, hosts.regionId))
          .where(where)
          .orderBy(asc(regions.sortOrder), asc(gpuSkus.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(gpuSkus)
          .innerJoin(hosts, eq(hosts.id, gpuSkus.hostId))
          .innerJoin(regions, eq(regions.id, hosts.regionId))
          .where(where),
      ]);
      return {
        rows: rows.map((r) => ({ ...r, gpuNum: Number(r.gpuNum), gpuIdleNum: Number(r.gpuIdleNum) })),
        total: count?.n ?? 0,
      };
    },
  };
}
