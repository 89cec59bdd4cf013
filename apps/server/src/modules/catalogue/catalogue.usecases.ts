import type {
  AdminActor,
  GpuTypeSale,
  GpuTypeStatusInput,
  GpuTypeStatusResult,
  GpuTypeView,
  RegionCreateInput,
  RegionUpdateInput,
  RegionView,
} from '@gpu/shared';
import { unitsToYuan, yuanToUnits } from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { recordAudit } from '../audit/index.ts';
import { catalogueErrors } from './catalogue.errors.ts';
import { createCatalogueRepository, type RegionRow } from './catalogue.repository.ts';

// Regions and GPU types; images and GPU SKUs have their own images.usecases.ts and skus.usecases.ts.

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
  noGpuHourlyPrice: unitsToYuan(r.noGpuHourlyPrice),
  hostCount,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** A region's fields as columns: no-GPU mode's price from yuan to units (DESIGN §4). */
function regionColumns<T extends RegionUpdateInput>(input: T) {
  const { noGpuHourlyPrice, ...rest } = input;
  return {
    ...rest,
    ...(noGpuHourlyPrice === undefined ? {} : { noGpuHourlyPrice: yuanToUnits(noGpuHourlyPrice) }),
  } as Omit<T, 'noGpuHourlyPrice'> & { noGpuHourlyPrice?: number };
}

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
      const created = await repo.insertRegion(regionColumns(input));
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
      const after = await repo.updateRegion(id, { ...regionColumns(input), updatedAt: deps.now() });
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
