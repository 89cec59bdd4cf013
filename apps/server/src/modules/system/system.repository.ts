import { yuanToUnits } from '@gpu/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { appMeta } from '../../platform/db/meta.tables.ts';
import { discounts } from '../discounts/discounts.tables.ts';
import { gpuSkus, images } from '../hosts/catalog.tables.ts';
import { hostGpus, hosts, regions } from '../hosts/hosts.tables.ts';
import { packagePrices } from '../market/package-prices.tables.ts';
import { DEMO_HOSTS, DEMO_IMAGES, DEMO_REGIONS, PRESET_URLS, type RegionCode } from './demo-data.ts';

/** Takes the first-start marker; false when another start (or an earlier one) has it. */
export async function claimFirstStart(db: DbOrTx, value: { demo: boolean }) {
  const claimed = await db
    .insert(appMeta)
    .values({ key: 'initial-seed', value })
    .onConflictDoNothing()
    .returning({ key: appMeta.key });
  return claimed.length > 0;
}

/** Writes the demo catalogue: regions, simulated hosts with GPUs and port pools, SKUs, images. */
export async function insertDemoCatalogue(tx: Tx, now: Date): Promise<Map<RegionCode, number>> {
  const regionRows = await tx
    .insert(regions)
    .values(DEMO_REGIONS.map((r) => ({ ...r })))
    .returning({ id: regions.id, code: regions.code });
  const regionIds = new Map(regionRows.map((r) => [r.code as RegionCode, r.id]));

  for (const [i, h] of DEMO_HOSTS.entries()) {
    const [host] = await tx
      .insert(hosts)
      .values({
        regionId: regionIds.get(h.region) as number,
        name: h.name,
        driver: 'simulated',
        publicAddress: `10.${20 + i}.0.11`,
        cpuModel: h.cpuModel,
        cpuCores: h.cpuCores,
        memoryGb: h.memoryGb,
        systemDiskGb: 50,
        dataDiskGb: 4_000,
        portRangeStart: 30_000 + i * 1_000,
        portRangeEnd: 30_000 + i * 1_000 + 199,
        nvidiaDriver: h.nvidiaDriver,
        cudaVersion: h.cudaVersion,
        settings: { latencyMs: 300, failureRate: 0 },
      })
      .returning({ id: hosts.id });
    if (!host) throw new Error('host insert returned no row');
    await tx.insert(hostGpus).values(
      Array.from({ length: h.gpuCount }, (_, index) => ({
        hostId: host.id,
        index,
        uuid: `GPU-${host.id.toString(16).padStart(4, '0')}${index.toString(16).padStart(4, '0')}-demo-${h.name}`,
        model: h.gpuModel,
        memoryGb: h.gpuMemoryGb,
        reservedReason: index < h.busy ? '线下客户占用（演示数据）' : null,
      })),
    );
    await tx.insert(gpuSkus).values({
      hostId: host.id,
      gpuModel: h.gpuModel,
      gpuBrand: h.gpuBrand,
      memoryGb: h.gpuMemoryGb,
      cpuPerGpu: h.cpuPerGpu,
      memoryPerGpuGb: Math.floor(h.memoryGb / h.gpuCount),
      systemDiskGb: 30,
      dataDiskGb: 50,
      hourlyPrice: yuanToUnits(h.hourlyYuan),
    });
  }

  await insertDemoPricing(tx, regionIds, now);
  await tx
    .insert(images)
    .values(
      DEMO_IMAGES.map((image, i) => ({ ...image, sortOrder: i, preset: PRESET_URLS.has(image.imageUrl) })),
    );
  return regionIds;
}

/** Two discounts (one ends minutes after first start, so its countdown shows) and one package price. */
async function insertDemoPricing(tx: Tx, regionIds: Map<RegionCode, number>, now: Date) {
  const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
  await tx.insert(discounts).values([
    {
      name: '限时特惠',
      description: '安徽A区 RTX 4090 限时 8 折',
      regionId: regionIds.get('anhui-a') as number,
      gpuModel: 'RTX 4090',
      rateBp: 8_000,
      startsAt: now,
      endsAt: minutes(10),
    },
    {
      name: 'A100 月度优惠',
      description: 'A100 80GB 全区 9 折',
      gpuModel: 'A100 80GB',
      rateBp: 9_000,
      startsAt: now,
      endsAt: minutes(30 * 24 * 60),
    },
  ]);
  await tx.insert(packagePrices).values({
    gpuType: 'A100 80GB',
    regionId: regionIds.get('beijing-a') as number,
    platform: 'local',
    dailyPrice: yuanToUnits(150),
    weeklyPrice: yuanToUnits(900),
    monthlyPrice: yuanToUnits(3_300),
  });
}

/**
 * VACUUM (ANALYZE) of the whole database: frees dead row versions for reuse and refreshes the
 * planner's statistics. PostgreSQL's autovacuum does this by itself; PGlite has none.
 */
export async function vacuumAnalyze(db: DbOrTx) {
  await db.execute(sql`vacuum (analyze)`);
}
