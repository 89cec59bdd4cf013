import type { BillingType } from '@gpu/shared';
import { formatYuan, unitsToYuan } from '@gpu/shared';
import { capabilitiesOf, createHostsRepository } from '../../hosts/index.ts';
import { createLedgerRepository } from '../../ledger/index.ts';
import { instanceErrors } from '../instances.errors.ts';
import type { InstanceRow } from '../instances.repository.ts';
import type { Tx } from './finish.usecases.ts';
import { createNoGpuRepository } from './no-gpu.repository.ts';

/**
 * Whether an instance may power on in no-GPU mode (无卡模式, issue 30): pay-as-you-go only (a
 * package paid for its period and keeps its GPUs while off: it simply powers on), on a host
 * whose GPUs the platform allocates and whose driver can recreate the container without them.
 */
export const noGpuOffered = (billingType: BillingType, hostDriver: string) => {
  const caps = capabilitiesOf(hostDriver);
  return billingType === 'hourly' && caps.localAllocation && caps.recreate;
};

/**
 * The no-GPU half of power on, under the instance's row lock (lock order: instance → host →
 * account): nothing is allocated (a stopped pay-as-you-go instance holds no GPU; its ports are
 * kept), an hour of its region's no-GPU price must be available, and the price becomes the
 * running period's rate (`noGpuRate`): the job recreates the container with no GPU
 * (instanceSpecOf), metering charges it as 无卡模式 lines.
 */
export async function noGpuStart(tx: Tx, locked: InstanceRow): Promise<{ noGpuRate: number }> {
  if (locked.billingType !== 'hourly') throw instanceErrors.noGpuPackage();
  const host = await createHostsRepository({ db: tx }).find(locked.hostId);
  if (!host || !noGpuOffered(locked.billingType, host.driver)) throw instanceErrors.noGpuUnsupported();
  const price = await createNoGpuRepository({ db: tx }).regionPrice(locked.regionId);
  if (price === undefined) throw instanceErrors.noGpuUnsupported();
  const account = await createLedgerRepository({ db: tx }).account(locked.userId);
  if (!account || account.available < price || account.available <= 0)
    throw instanceErrors.insufficientForHour(formatYuan(unitsToYuan(price)));
  return { noGpuRate: price };
}
