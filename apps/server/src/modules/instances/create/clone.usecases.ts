import type { CloneInstanceRequest, CloneTargets } from '@gpu/shared';
import type { Tx } from '../../../platform/db/client.ts';
import { isAppError } from '../../../platform/errors.ts';
import type { AuthUser } from '../../auth/index.ts';
import { capabilitiesOf } from '../../hosts/index.ts';
import { createMarketRepository, type MarketRow, scopeOf } from '../../market/index.ts';
import { pricingErrors } from '../../pricing/index.ts';
import type { TenantRecord } from '../../tenants/index.ts';

import type { InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { createInstancesRepository, type InstanceWithPlace } from '../instances.repository.ts';
import { createInstance } from './create.usecases.ts';

/**
 * POST /api/gpu/instance/clone (克隆实例, issue 30): a new instance from the caller's powered-off
 * instance's system disk and data volume, bought exactly as a create is (`createInstance`: same
 * machine and image, re-priced, same idempotency, vouchers and discounts, charged at once for
 * packages) and answered in CREATING. Its provisioning job makes the container with the driver's
 * `clone` (jobs/provisioning.usecases.ts) and takes it to RUNNING, or to FAILED with everything
 * refunded, as a failed create. The source keeps its extra container ports in the clone.
 *
 * The source must be STOPPED: a running container's disks are no consistent copy, and a commit
 * of a paused one would stop the customer's work for the copy's minutes anyway.
 */
export async function cloneInstance(
  deps: InstanceDeps,
  user: AuthUser,
  tenant: TenantRecord,
  sourceId: number,
  input: CloneInstanceRequest,
  idempotencyKey?: string,
): Promise<InstanceWithPlace> {
  const source = await createInstancesRepository(deps).findOwned(sourceId, user.id, user.tenantId);
  if (!source) throw instanceErrors.notFound();
  if (!capabilitiesOf(source.hostDriver).clone) throw instanceErrors.cloneUnsupported();
  /**
   * Under the source's row lock, in the purchase's transaction: it is still powered off, so a
   * power on, reset or release (`begin`, which refuses while a clone of it is CREATING) comes
   * either before (this refuses) or after the clone is bought (that one refuses). A repeat of a
   * clone already bought answers it, whatever the source does meanwhile.
   */
  const check = async (tx: Tx) => {
    const repo = createInstancesRepository({ db: tx });
    const locked = await repo.lock(source.id);
    const repeat = idempotencyKey ? await repo.findByIdempotencyKey(user.id, idempotencyKey) : undefined;
    if (repeat || !locked) return;
    if (locked.status !== 'STOPPED' || !locked.containerId)
      throw instanceErrors.cloneNeedsPowerOff(locked.status);
  };
  // Without a key there is no repeat to answer: refuse before opening the purchase.
  if (source.status !== 'STOPPED' && !idempotencyKey) throw instanceErrors.cloneNeedsPowerOff(source.status);
  const machineId = await cloneMachineOf(deps, tenant, source, input.machineId);
  return createInstance(
    deps,
    user,
    tenant,
    {
      machineId,
      image: source.image,
      instanceName: input.instanceName,
      gpuAmount: input.gpuAmount,
      duration: input.duration,
      billingType: input.billingType,
      voucherId: input.voucherId,
      extraPorts: source.extraPorts.map((p) => p.containerPort),
    },
    idempotencyKey,
    { cloneOf: { id: source.id, name: source.name, check } },
  ).catch((err) => {
    // A clone has no other machine to pick: too few idle GPUs on it is a conflict with the host's
    // state (409, as when a racing create took them at the insert), not a wrong choice (422).
    if (isAppError(err) && err.code === 'pricing.not_enough_idle')
      throw instanceErrors.cloneNoFreeGpus(
        deps.imageRegistry ? `${err.message}，可选择同地区其他有空闲 GPU 的机器` : err.message,
      );
    throw err;
  });
}

/** Where a clone may go: the source's region and GPU model, a host that can clone (market rows). */
const fitsClone = (source: InstanceWithPlace, r: MarketRow) =>
  r.regionId === source.regionId && r.gpuModel === source.gpuModel && capabilitiesOf(r.hostDriver).clone;

/**
 * Another host takes a clone only through IMAGE_REGISTRY (both disks travel as images), so both
 * hosts must push and pull images (`capabilities.userImages`).
 */
const crossHostAllowed = (deps: InstanceDeps, source: InstanceWithPlace, r: MarketRow) =>
  Boolean(deps.imageRegistry) &&
  capabilitiesOf(source.hostDriver).userImages &&
  capabilitiesOf(r.hostDriver).userImages;

/**
 * The machine the clone is bought on: the source's when none is asked for; another one of the
 * source's host as it is; one of another host in the source's region with its GPU model only
 * with a registry (409 without: the user picks the source's machine again).
 */
async function cloneMachineOf(
  deps: InstanceDeps,
  tenant: TenantRecord,
  source: InstanceWithPlace,
  asked: number | undefined,
): Promise<number> {
  if (asked === undefined || asked === source.skuId) return source.skuId;
  const [row] = await createMarketRepository(deps).listForTenant(scopeOf(tenant), [asked]);
  if (!row) throw pricingErrors.machineNotFound();
  if (!fitsClone(source, row)) throw instanceErrors.cloneTargetMismatch();
  if (row.hostId !== source.hostId && !crossHostAllowed(deps, source, row))
    throw instanceErrors.cloneOtherHostNeedsRegistry();
  return row.id;
}

/**
 * GET /api/gpu/instance/clone-targets: the machines the clone dialog offers. The source's machine
 * first (the fast copy, and what the user started from, even with no idle GPU so the dialog can
 * say so), then, with a registry, the region's others of its GPU model that have idle GPUs, most
 * idle first. The user picks; nothing moves a clone to another host without being asked, because
 * the copy through the registry takes longer and the price may differ.
 */
export async function cloneTargets(
  deps: InstanceDeps,
  user: AuthUser,
  tenant: TenantRecord,
  sourceId: number,
): Promise<CloneTargets> {
  const source = await createInstancesRepository(deps).findOwned(sourceId, user.id, user.tenantId);
  if (!source) throw instanceErrors.notFound();
  const rows = (await createMarketRepository(deps).listForTenant(scopeOf(tenant))).filter((r) =>
    fitsClone(source, r),
  );
  const otherHosts = rows.some((r) => r.hostId !== source.hostId && crossHostAllowed(deps, source, r));
  const list = rows
    .filter(
      (r) =>
        r.id === source.skuId ||
        (r.gpuIdleNum > 0 && (r.hostId === source.hostId || crossHostAllowed(deps, source, r))),
    )
    .sort(
      (a, b) => Number(b.id === source.skuId) - Number(a.id === source.skuId) || b.gpuIdleNum - a.gpuIdleNum,
    )
    .map((r) => ({
      machineId: r.id,
      hostName: r.hostName,
      regionName: r.regionName,
      gpuModel: r.gpuModel,
      gpuIdleNum: r.gpuIdleNum,
      sameHost: r.hostId === source.hostId,
    }));
  return { otherHosts: Boolean(deps.imageRegistry) && otherHosts, list };
}
