import { containerNameOf, createInstanceContainer } from '../../hosts/index.ts';
import { pullUserImageIfMissing } from '../images/pull.usecases.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import type { InstanceRow } from '../instances.repository.ts';
import { instanceSpecOf } from '../jobs/provisioning.usecases.ts';
import { driverFor, failure, finish, ignoreGone } from './finish.usecases.ts';

/**
 * The job half of a reset (`resetSystem`, lifecycle.usecases.ts): the new container replaces the old one (found by name when a
 * recreate before a crash already made it), then the instance is STOPPED again with its new
 * container and image. A failure leaves it STOPPED as it was (the driver gives the old
 * container its name back).
 */
export async function resetJob(deps: InstanceDeps, inst: InstanceRow) {
  const image = inst.transitionJob?.image ?? inst.image;
  let containerId: string;
  try {
    const driver = await driverFor(deps, inst);
    // A saved image pushed to the registry may not be on this host yet (change image to it).
    await pullUserImageIfMissing(driver, image);
    const spec = await instanceSpecOf(deps, driver, inst, image);
    const found = await driver.findByName(containerNameOf(inst.id));
    if (found && inst.containerId && found.id === inst.containerId) {
      containerId = (await driver.recreate(inst.containerId, spec, { keepSystemDisk: false })).containerId;
    } else {
      // Made by a recreate cut short (adopted), or no container at all (a new one).
      if (inst.containerId && found?.id !== inst.containerId)
        await driver.remove(inst.containerId).catch(ignoreGone);
      containerId = found?.id ?? (await createInstanceContainer(deps, inst.hostId, spec)).containerId;
    }
  } catch (err) {
    const row = await finish(deps, inst, 'RESETTING', 'STOPPED', `重置失败：${(err as Error).message}`);
    return { row, failed: failure('重置系统', err) };
  }
  const reason = image === inst.image ? '系统已重置' : `已更换镜像：${image}`;
  const row = await finish(
    deps,
    inst,
    'RESETTING',
    'STOPPED',
    reason,
    async () => ({ containerId, image }),
    true,
  );
  return { row };
}
