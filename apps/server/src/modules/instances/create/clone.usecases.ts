import type { CloneInstanceRequest } from '@gpu/shared';
import type { Tx } from '../../../platform/db/client.ts';
import { isAppError } from '../../../platform/errors.ts';
import type { AuthUser } from '../../auth/index.ts';
import { capabilitiesOf } from '../../hosts/index.ts';
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
  return createInstance(
    deps,
    user,
    tenant,
    {
      machineId: source.skuId,
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
      throw instanceErrors.cloneNoFreeGpus(err.message);
    throw err;
  });
}
