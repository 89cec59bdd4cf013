import {
  type AdminActor,
  type AdminImage,
  type GpuSkuCreateInput,
  type GpuSkuQuery,
  type GpuSkuSyncResult,
  type GpuSkuUpdateInput,
  type GpuSkuView,
  type GpuTypeSale,
  type GpuTypeStatusInput,
  type GpuTypeStatusResult,
  type GpuTypeView,
  type ImageCreateInput,
  type ImageUpdateInput,
  type Page,
  type RegionCreateInput,
  type RegionUpdateInput,
  type RegionView,
  unitsToYuan,
  yuanToUnits,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { recordAudit } from '../audit/index.ts';
import { catalogueErrors } from './catalogue.errors.ts';
import {
  createCatalogueRepository,
  type ImageRow,
  type RegionRow,
  type SkuListRow,
} from './catalogue.repository.ts';

/** What the catalogue usecases need; `changed` drops the market's cache after a commit. */
export interface CatalogueDeps {
  db: Db;
  now: Now;
  changed: () => void;
}

const toRegion = (r: RegionRow, hostCount: number): RegionView => ({
  id: r.id,
  name: r.name,
  code: r.code,
  sortOrder: r.sortOrder,
  overseas: r.overseas,
  enabled: r.enabled,
  hostCount,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const toImage = (r: ImageRow): AdminImage => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const toSku = (r: SkuListRow): GpuSkuView => ({
  id: r.id,
  hostId: r.hostId,
  hostName: r.hostName,
  regionId: r.regionId,
  regionName: r.regionName,
  gpuModel: r.gpuModel,
  gpuBrand: r.gpuBrand,
  memoryGb: r.memoryGb,
  cpuPerGpu: r.cpuPerGpu,
  memoryPerGpuGb: r.memoryPerGpuGb,
  systemDiskGb: r.systemDiskGb,
  dataDiskGb: r.dataDiskGb,
  hourlyPrice: unitsToYuan(r.hourlyPrice),
  listed: r.listed,
  gpuTotal: Number(r.gpuTotal),
  gpuIdle: Number(r.gpuIdle),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

// ---- Regions ----

export async function listRegions({ db }: { db: Db }): Promise<RegionView[]> {
  const rows = await createCatalogueRepository({ db }).listRegions();
  return rows.map((r) => toRegion(r.region, Number(r.hostCount)));
}

const saleOf = (listed: number, total: number): GpuTypeSale =>
  listed === 0 ? 'none' : listed >= total ? 'all' : 'some';

export async function gpuTypes({ db }: { db: Db }, regionId?: number): Promise<GpuTypeView[]> {
  const repo = createCatalogueRepository({ db });
  if (regionId !== undefined && !(await repo.findRegion(regionId))) throw catalogueErrors.regionNotFound();
  const rows = await repo.gpuTypes(regionId);
  return rows.map((r) => ({
    ...r,
    regionIds: [...r.regionIds].map(Number).sort((a, b) => a - b),
    sale: saleOf(r.listedCount, r.skuCount),
  }));
}

/**
 * Takes a GPU type of a region off sale (`listed: false` on each of its SKUs on the region's
 * hosts) or puts it back, in one transaction with one audit row. Putting it back lists only
 * priced SKUs: one at ¥0 was made by sync and never priced, and stays off sale (`unpriced`).
 */
export async function setGpuTypeStatus(
  deps: CatalogueDeps,
  actor: AdminActor,
  regionId: number,
  input: GpuTypeStatusInput,
): Promise<GpuTypeStatusResult> {
  const { changed, unpriced } = await deps.db.transaction(async (tx) => {
    const repo = createCatalogueRepository({ db: tx });
    if (!(await repo.findRegion(regionId))) throw catalogueErrors.regionNotFound();
    const skus = await repo.skusOfModelInRegion(regionId, input.gpuModel);
    if (!skus.length) throw catalogueErrors.gpuTypeNotInRegion(input.gpuModel);
    const changedIds = await repo.setModelListedInRegion(regionId, input.gpuModel, input.listed, deps.now());
    const unpricedIds = input.listed
      ? skus.filter((s) => !s.listed && s.hourlyPrice <= 0).map((s) => s.id)
      : [];
    await recordAudit(tx, actor, 'gpu_types.status', `region:${regionId}`, {
      gpuModel: input.gpuModel,
      listed: input.listed,
      skuIds: skus.map((s) => s.id),
      changedIds,
      ...(unpricedIds.length ? { unpricedIds } : {}),
    });
    return { changed: changedIds.length, unpriced: unpricedIds.length };
  });
  deps.changed();
  const type = (await gpuTypes(deps, regionId)).find((g) => g.gpuModel === input.gpuModel);
  if (!type) throw catalogueErrors.gpuTypeNotInRegion(input.gpuModel);
  return { ...type, listed: input.listed, changed, unpriced };
}

export async function createRegion(deps: CatalogueDeps, actor: AdminActor, input: RegionCreateInput) {
  try {
    const row = await deps.db.transaction(async (tx) => {
      const repo = createCatalogueRepository({ db: tx });
      if ((await repo.findRegionByNameOrCode(input.name, input.code)).length)
        throw catalogueErrors.regionTaken();
      const created = await repo.insertRegion(input);
      await recordAudit(tx, actor, 'regions.create', `region:${created.id}`, { after: input });
      return created;
    });
    deps.changed();
    return toRegion(row, 0);
  } catch (e) {
    if (isUniqueViolation(e)) throw catalogueErrors.regionTaken();
    throw e;
  }
}

export async function updateRegion(
  deps: CatalogueDeps,
  actor: AdminActor,
  id: number,
  input: RegionUpdateInput,
): Promise<RegionView> {
  try {
    await deps.db.transaction(async (tx) => {
      const repo = createCatalogueRepository({ db: tx });
      const before = await repo.findRegion(id);
      if (!before) throw catalogueErrors.regionNotFound();
      const clash = await repo.findRegionByNameOrCode(input.name ?? before.name, input.code ?? before.code);
      if (clash.some((r) => r.id !== id)) throw catalogueErrors.regionTaken();
      const after = await repo.updateRegion(id, { ...input, updatedAt: deps.now() });
      await recordAudit(tx, actor, 'regions.update', `region:${id}`, { before, after });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw catalogueErrors.regionTaken();
    throw e;
  }
  deps.changed();
  const found = (await listRegions(deps)).find((r) => r.id === id);
  if (!found) throw catalogueErrors.regionNotFound();
  return found;
}

// ---- Images ----

export async function listImages(
  { db }: { db: Db },
  q: {
    page: number;
    size: number;
    keyword?: string;
    frameworkType?: string;
    gpuBrand?: string;
    enabled?: boolean;
  },
): Promise<Page<AdminImage>> {
  const { rows, total } = await createCatalogueRepository({ db }).listImages(q, q);
  return { list: rows.map(toImage), total, page: q.page, size: q.size };
}

export async function getImage({ db }: { db: Db }, id: number): Promise<AdminImage> {
  const row = await createCatalogueRepository({ db }).findImage(id);
  if (!row) throw catalogueErrors.imageNotFound();
  return toImage(row);
}

export async function createImage(deps: CatalogueDeps, actor: AdminActor, input: ImageCreateInput) {
  try {
    const row = await deps.db.transaction(async (tx) => {
      const repo = createCatalogueRepository({ db: tx });
      if (await repo.findImageByUrl(input.imageUrl)) throw catalogueErrors.imageTaken(input.imageUrl);
      const created = await repo.insertImage(input);
      await recordAudit(tx, actor, 'images.create', `image:${created.id}`, { after: input });
      return created;
    });
    return toImage(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw catalogueErrors.imageTaken(input.imageUrl);
    throw e;
  }
}

export async function updateImage(
  deps: CatalogueDeps,
  actor: AdminActor,
  id: number,
  input: ImageUpdateInput,
) {
  try {
    const row = await deps.db.transaction(async (tx) => {
      const repo = createCatalogueRepository({ db: tx });
      const before = await repo.findImage(id);
      if (!before) throw catalogueErrors.imageNotFound();
      if (input.imageUrl && input.imageUrl !== before.imageUrl && (await repo.findImageByUrl(input.imageUrl)))
        throw catalogueErrors.imageTaken(input.imageUrl);
      const after = await repo.updateImage(id, { ...input, updatedAt: deps.now() });
      if (!after) throw catalogueErrors.imageNotFound();
      await recordAudit(tx, actor, 'images.update', `image:${id}`, { before, after });
      return after;
    });
    return toImage(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw catalogueErrors.imageTaken(input.imageUrl ?? '');
    throw e;
  }
}

// ---- GPU SKUs ----

export async function listSkus({ db }: { db: Db }, q: GpuSkuQuery): Promise<Page<GpuSkuView>> {
  const { rows, total } = await createCatalogueRepository({ db }).listSkus(q, q);
  return { list: rows.map(toSku), total, page: q.page, size: q.size };
}

export async function allSkus({ db }: { db: Db }): Promise<GpuSkuView[]> {
  return (await createCatalogueRepository({ db }).listSkus({})).rows.map(toSku);
}

export async function getSku({ db }: { db: Db }, id: number): Promise<GpuSkuView> {
  const [row] = (await createCatalogueRepository({ db }).listSkus({ ids: [id] })).rows;
  if (!row) throw catalogueErrors.skuNotFound();
  return toSku(row);
}

export async function createSku(deps: CatalogueDeps, actor: AdminActor, input: GpuSkuCreateInput) {
  const id = await deps.db.transaction(async (tx) => {
    const repo = createCatalogueRepository({ db: tx });
    if (!(await repo.hostExists(input.hostId))) throw catalogueErrors.skuHostNotFound();
    if (await repo.findSkuOf(input.hostId, input.gpuModel)) throw catalogueErrors.skuTaken(input.gpuModel);
    const row = await repo.insertSku({ ...input, hourlyPrice: yuanToUnits(input.hourlyPrice) });
    await recordAudit(tx, actor, 'gpu_sku.create', `gpu-sku:${row.id}`, { after: row });
    return row.id;
  });
  deps.changed();
  return getSku(deps, id);
}

export async function updateSku(
  deps: CatalogueDeps,
  actor: AdminActor,
  id: number,
  input: GpuSkuUpdateInput,
) {
  await deps.db.transaction(async (tx) => {
    const repo = createCatalogueRepository({ db: tx });
    const before = await repo.findSku(id);
    if (!before) throw catalogueErrors.skuNotFound();
    if (
      input.gpuModel &&
      input.gpuModel !== before.gpuModel &&
      (await repo.findSkuOf(before.hostId, input.gpuModel))
    )
      throw catalogueErrors.skuTaken(input.gpuModel);
    const { hourlyPrice, ...rest } = input;
    const after = await repo.updateSku(id, {
      ...rest,
      ...(hourlyPrice !== undefined ? { hourlyPrice: yuanToUnits(hourlyPrice) } : {}),
      updatedAt: deps.now(),
    });
    await recordAudit(tx, actor, 'gpu_sku.update', `gpu-sku:${id}`, { before, after });
  });
  deps.changed();
  return getSku(deps, id);
}

export async function deleteSku(deps: CatalogueDeps, actor: AdminActor, id: number) {
  await deps.db.transaction(async (tx) => {
    const repo = createCatalogueRepository({ db: tx });
    const before = await repo.findSku(id);
    if (!before) throw catalogueErrors.skuNotFound();
    if (await repo.skuHasInstances(id)) throw catalogueErrors.skuInUse();
    await repo.deleteSku(id);
    await recordAudit(tx, actor, 'gpu_sku.delete', `gpu-sku:${id}`, { before });
  });
  deps.changed();
}

/**
 * Recomputes SKUs from the GPUs the hosts reported: memory and brand follow the inventory, a
 * model without a SKU gets one (unlisted at price 0 until an admin prices and lists it), and a
 * listed SKU whose model the host no longer has is unlisted.
 */
export async function syncSkus(deps: CatalogueDeps, actor: AdminActor): Promise<GpuSkuSyncResult> {
  const result = await deps.db.transaction(async (tx) => {
    const repo = createCatalogueRepository({ db: tx });
    const [reported, skus, hostIds] = await Promise.all([
      repo.reportedModels(),
      repo.allSkus(),
      repo.hostIds(),
    ]);
    const now = deps.now();
    let created = 0;
    let updated = 0;
    let unlisted = 0;
    for (const r of reported) {
      const sku = skus.find((s) => s.hostId === r.hostId && s.gpuModel === r.model);
      if (!sku) {
        await repo.insertSku({
          hostId: r.hostId,
          gpuModel: r.model,
          memoryGb: r.memoryGb,
          cpuPerGpu: 8,
          memoryPerGpuGb: 32,
          systemDiskGb: 30,
          dataDiskGb: 50,
          hourlyPrice: 0,
          listed: false,
        });
        created++;
      } else if (sku.memoryGb !== r.memoryGb) {
        await repo.updateSku(sku.id, { memoryGb: r.memoryGb, updatedAt: now });
        updated++;
      }
    }
    // A host that reported nothing (never probed) keeps its SKUs: there is nothing to compare.
    const reporting = new Set(reported.map((r) => r.hostId));
    for (const s of skus) {
      const has = reported.some((r) => r.hostId === s.hostId && r.model === s.gpuModel);
      if (!has && s.listed && reporting.has(s.hostId)) {
        await repo.updateSku(s.id, { listed: false, updatedAt: now });
        unlisted++;
      }
    }
    const summary = { hosts: hostIds.length, created, updated, unlisted };
    await recordAudit(tx, actor, 'gpu_sku.sync', 'gpu-sku:*', summary);
    return summary;
  });
  deps.changed();
  return result;
}
