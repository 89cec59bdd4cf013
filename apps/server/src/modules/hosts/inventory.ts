import type { Tx } from '../../platform/db/client.ts';
import type { GpuInfo } from './drivers/host-driver.ts';
import { createInventoryRepository } from './inventory.repository.ts';

/** Set on an allocated GPU that the last probe did not report; cleared when it is back. */
export const MISSING_GPU_REASON = '最近一次探测未发现该 GPU';

/**
 * Makes host_gpus match what the host reports (by index): updates and adds GPUs, deletes free
 * ones that are gone, and takes allocated ones that are gone out of sale instead of deleting
 * them. Then, when the host sells one SKU and all its GPUs are one model, the SKU follows the
 * reported model, so the market keeps counting the host's GPUs. The caller holds the host lock.
 */
export async function syncGpuInventory(tx: Tx, hostId: number, gpus: GpuInfo[]) {
  const repo = createInventoryRepository({ db: tx });
  const existing = await repo.gpus(hostId);
  const byIndex = new Map(existing.map((g) => [g.index, g]));
  const now = new Date();
  for (const g of gpus) {
    const row = byIndex.get(g.index);
    if (!row) {
      await repo.insertGpus([{ hostId, index: g.index, uuid: g.uuid, model: g.model, memoryGb: g.memoryGb }]);
      continue;
    }
    const back = row.reservedReason === MISSING_GPU_REASON;
    if (row.uuid !== g.uuid || row.model !== g.model || row.memoryGb !== g.memoryGb || back) {
      await repo.updateGpu(row.id, {
        uuid: g.uuid,
        model: g.model,
        memoryGb: g.memoryGb,
        ...(back ? { reservedReason: null } : {}),
        updatedAt: now,
      });
    }
  }
  const reported = gpus.map((g) => g.index);
  const deleted = await repo.deleteFreeGpusNotIn(hostId, reported);
  const missing = await repo.reserveGpusNotIn(hostId, reported, MISSING_GPU_REASON, now);

  const models = [...new Set(gpus.map((g) => g.model))];
  const skus = await repo.skus(hostId);
  const first = gpus[0];
  const [sku] = skus;
  if (
    models.length === 1 &&
    skus.length === 1 &&
    first &&
    sku &&
    (sku.gpuModel !== first.model || sku.memoryGb !== first.memoryGb)
  ) {
    await repo.updateSku(sku.id, { gpuModel: first.model, memoryGb: first.memoryGb, updatedAt: now });
  }
  return { deleted, missing };
}
