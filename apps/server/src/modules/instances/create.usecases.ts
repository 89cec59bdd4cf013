import { type CreateInstanceRequest, formatYuan, unitsToYuan } from '@gpu/shared';
import { eq } from 'drizzle-orm';
import type { AuthUser } from '../../app/plugins/auth.ts';
import { createBillingRepository } from '../billing/billing.repository.ts';
import { postLedgerEntry } from '../billing/ledger.ts';
import { allocateOnHost, releaseOnHost } from '../hosts/allocation.ts';
import { createInstanceContainer } from '../hosts/containers.usecases.ts';
import { isDriverError } from '../hosts/drivers/driver-errors.ts';
import { buildInstanceContainerSpec, generateRootPassword } from '../hosts/hosts.models.ts';
import { createHostsRepository } from '../hosts/hosts.repository.ts';
import { createImagesRepository } from '../market/images.repository.ts';
import { gpuSkus } from '../market/market.tables.ts';
import { pricingErrors } from '../pricing/pricing.errors.ts';
import { quoteOrder } from '../pricing/pricing.usecases.ts';
import type { TenantRecord } from '../tenants/tenants.repository.ts';
import { actorLabel, type InstanceDeps } from './instances.deps.ts';
import { instanceErrors } from './instances.errors.ts';
import { packageEnd } from './instances.models.ts';
import { createInstancesRepository, type InstanceRow } from './instances.repository.ts';

/**
 * POST /api/gpu/instance/create. Re-validates and re-prices everything (client prices are never
 * trusted), then in ONE transaction: instance row (CREATING), GPUs and ports under the host
 * lock, and for packages the whole charge through the ledger. The driver call comes after
 * commit; its failure marks the instance FAILED, frees the GPUs and ports and refunds.
 */
export async function createInstance(
  deps: InstanceDeps,
  user: AuthUser,
  tenant: TenantRecord,
  input: CreateInstanceRequest,
): Promise<InstanceRow> {
  // Vouchers arrive with their own feature; a chosen voucher is refused rather than ignored.
  if (input.voucherId) throw pricingErrors.voucherUnavailable();
  const now = deps.clock.now();
  const rules = await deps.discounts.rulesFor(tenant.id);
  const quote = await quoteOrder({ db: deps.db, now: () => now, rules }, tenant, input);
  const image = await createImagesRepository(deps).findUsable(input.image, quote.row.gpuBrand);
  if (!image) throw instanceErrors.imageUnavailable();
  const rootPassword = generateRootPassword();
  const actor = actorLabel({ kind: 'user', id: user.id });
  const hourlyRate = quote.billingType === 'hourly' ? quote.discountedUnitPrice * quote.gpuAmount : 0;

  const created = await deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    if (quote.billingType === 'hourly') {
      const account = await createBillingRepository({ db: tx }).account(user.id);
      if (!account || account.available < quote.payableAmount) {
        throw instanceErrors.insufficientForHour(formatYuan(unitsToYuan(quote.payableAmount)));
      }
    }
    const inst = await repo.insert({
      tenantId: tenant.id,
      userId: user.id,
      hostId: quote.row.hostId,
      skuId: quote.row.id,
      regionId: quote.row.regionId,
      name: input.instanceName,
      image: image.imageUrl,
      gpuModel: quote.row.gpuModel,
      gpuCount: quote.gpuAmount,
      billingType: quote.billingType,
      hourlyRate,
      packageUnitPrice: quote.billingType === 'hourly' ? null : quote.discountedUnitPrice,
      discountRateBp: quote.discount?.rateBp ?? null,
      duration: quote.billingType === 'hourly' ? 1 : quote.duration,
      status: 'CREATING',
      rootPasswordEnc: deps.box.seal(rootPassword),
      transitionAt: now,
      createdAt: now,
    });
    const alloc = await allocateOnHost(tx, {
      hostId: inst.hostId,
      instanceId: inst.id,
      gpuCount: inst.gpuCount,
    });
    const patch = {
      gpuIndices: alloc.gpus.map((g) => g.index),
      sshPort: alloc.ports[0] ?? null,
      jupyterPort: alloc.ports[1] ?? null,
    };
    await repo.update(inst.id, patch);
    await repo.event(inst.id, null, 'CREATING', actor, '创建实例', now);
    if (quote.billingType !== 'hourly' && quote.payableAmount > 0) {
      const { entry } = await postLedgerEntry(tx, {
        userId: user.id,
        kind: 'charge',
        amount: -quote.payableAmount,
        idempotencyKey: `instance:${inst.id}:create`,
        reference: { type: 'instance', id: inst.id },
        memo: `包期实例 ${inst.name} ×${inst.duration}`,
        at: now,
      });
      await repo.update(inst.id, { charged: quote.payableAmount });
      await repo.bill({
        tenantId: tenant.id,
        userId: user.id,
        instanceId: inst.id,
        billingType: inst.billingType,
        kind: 'create',
        periodStart: now,
        periodEnd: packageEnd(inst.billingType, inst.duration, now) ?? now,
        amount: quote.payableAmount,
        ledgerEntryId: entry.id,
        createdAt: now,
      });
    }
    return { ...inst, ...patch };
  });
  deps.market.invalidate();
  return provision(deps, created, rootPassword);
}

/** The driver half of create: container, start, RUNNING; or FAILED with everything returned. */
async function provision(deps: InstanceDeps, inst: InstanceRow, rootPassword: string): Promise<InstanceRow> {
  const [sku] = await deps.db.select().from(gpuSkus).where(eq(gpuSkus.id, inst.skuId));
  const host = await createHostsRepository(deps).find(inst.hostId);
  let containerId: string | null = null;
  try {
    if (!sku || !host) throw new Error('host or SKU vanished');
    const spec = buildInstanceContainerSpec({
      instanceId: inst.id,
      userId: inst.userId,
      image: inst.image,
      gpuIndices: inst.gpuIndices,
      ports: [inst.sshPort, inst.jupyterPort].filter((p): p is number => p !== null),
      sku,
      rootPassword,
    });
    containerId = (await createInstanceContainer(deps, inst.hostId, spec)).containerId;
    await deps.hostDrivers.forHost(host).start(containerId);
  } catch (err) {
    await failCreate(deps, inst, containerId, err);
    throw instanceErrors.createFailed(isDriverError(err) ? err.message : '主机暂时不可用，费用已全额退回');
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(inst.id);
    if (locked?.status !== 'CREATING') return locked ?? inst;
    // Billing starts at RUNNING (DESIGN §11): packages run their time from here.
    const patch = {
      status: 'RUNNING' as const,
      containerId,
      runningSince: now,
      expiresAt: packageEnd(inst.billingType, inst.duration, now),
      transitionAt: null,
    };
    await repo.update(inst.id, patch);
    await repo.event(inst.id, 'CREATING', 'RUNNING', 'system', '容器已启动', now);
    return { ...locked, ...patch };
  });
}

/** Create failed: FAILED, GPUs and ports back, every charge refunded; a container left behind is removed. */
export async function failCreate(
  deps: InstanceDeps,
  inst: InstanceRow,
  containerId: string | null,
  cause: unknown,
) {
  if (containerId) {
    const host = await createHostsRepository(deps).find(inst.hostId);
    if (host)
      await deps.hostDrivers
        .forHost(host)
        .remove(containerId)
        .catch(() => undefined);
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(inst.id);
    if (locked?.status !== 'CREATING') return;
    await repo.update(inst.id, { status: 'FAILED', transitionAt: null, stopReason: '创建失败', charged: 0 });
    await repo.event(
      inst.id,
      'CREATING',
      'FAILED',
      'system',
      String((cause as Error)?.message ?? cause).slice(0, 500),
      now,
    );
    await releaseOnHost(tx, { hostId: inst.hostId, instanceId: inst.id });
    if (locked.charged > 0) {
      const { entry } = await postLedgerEntry(tx, {
        userId: inst.userId,
        kind: 'refund',
        amount: locked.charged,
        idempotencyKey: `instance:${inst.id}:create-refund`,
        reference: { type: 'instance', id: inst.id },
        memo: `实例 ${inst.name} 创建失败退款`,
        at: now,
      });
      await repo.bill({
        tenantId: inst.tenantId,
        userId: inst.userId,
        instanceId: inst.id,
        billingType: inst.billingType,
        kind: 'refund',
        periodStart: now,
        periodEnd: now,
        amount: -locked.charged,
        ledgerEntryId: entry.id,
        createdAt: now,
      });
    }
  });
  deps.market.invalidate();
}
