import {
  type AdminActor,
  type GpuSkuCreateInput,
  type GpuSkuQuery,
  type GpuSkuSyncResult,
  type GpuSkuUpdateInput,
  type GpuSkuView,
  type Page,
  unitsToYuan,
  yuanToUnits,
} from '@gpu/shared';
import type { Db } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import { catalogueErrors } from './catalogue.errors.ts';
import { createCatalogueRepository, type SkuListRow } from './catalogue.repository.ts';
import type { CatalogueDeps } from './catalogue.usecases.ts';

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
