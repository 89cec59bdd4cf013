import { type HostSkuInput, hostSkuInputSchema, yuanToUnits } from '@gpu/shared';
import type { Tx } from '../../platform/db/client.ts';
import type { HostRecord } from './drivers/host-driver.ts';
import { hostErrors } from './hosts.errors.ts';
import { createInventoryRepository } from './inventory.repository.ts';

/**
 * Creates or updates the SKU a host sells, so the market lists it. The GPU model comes from the
 * declared GPUs, else from the host's GPU rows (the market counts GPUs of the SKU's model).
 * A partial input updates an existing SKU; a new SKU needs a price.
 */
export async function upsertHostSku(tx: Tx, host: HostRecord, input: Partial<HostSkuInput>) {
  const declared = (host.settings as { gpus?: { model: string; brand?: string; memoryGb: number } }).gpus;
  const repo = createInventoryRepository({ db: tx });
  const gpu = await repo.firstGpu(host.id);
  const model = declared?.model ?? gpu?.model;
  const memoryGb = declared?.memoryGb ?? gpu?.memoryGb;
  const existing = await repo.skusById(host.id);
  const current =
    existing.find((s) => s.gpuModel === model) ?? (existing.length === 1 ? existing[0] : undefined);
  const now = new Date();
  if (current) {
    await repo.updateSku(current.id, {
      ...(model ? { gpuModel: model } : {}),
      ...(memoryGb ? { memoryGb } : {}),
      ...(declared?.brand ? { gpuBrand: declared.brand } : {}),
      ...(input.hourlyPrice !== undefined ? { hourlyPrice: yuanToUnits(input.hourlyPrice) } : {}),
      ...(input.cpuPerGpu !== undefined ? { cpuPerGpu: input.cpuPerGpu } : {}),
      ...(input.memoryPerGpuGb !== undefined ? { memoryPerGpuGb: input.memoryPerGpuGb } : {}),
      ...(input.systemDiskGb !== undefined ? { systemDiskGb: input.systemDiskGb } : {}),
      ...(input.dataDiskGb !== undefined ? { dataDiskGb: input.dataDiskGb } : {}),
      ...(input.listed !== undefined ? { listed: input.listed } : {}),
      updatedAt: now,
    });
    return;
  }
  if (input.hourlyPrice === undefined) throw hostErrors.skuNeedsPrice();
  if (!model || !memoryGb) throw hostErrors.skuNeedsGpuModel();
  const sku = hostSkuInputSchema.parse(input);
  await repo.insertSku({
    hostId: host.id,
    gpuModel: model,
    gpuBrand: declared?.brand ?? 'NVIDIA',
    memoryGb,
    cpuPerGpu: sku.cpuPerGpu,
    memoryPerGpuGb: sku.memoryPerGpuGb,
    systemDiskGb: sku.systemDiskGb,
    dataDiskGb: sku.dataDiskGb,
    hourlyPrice: yuanToUnits(sku.hourlyPrice),
    listed: sku.listed,
  });
}
