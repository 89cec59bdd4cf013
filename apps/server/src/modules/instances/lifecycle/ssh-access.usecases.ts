import type { HostDriver, SshAccess } from '../../hosts/index.ts';
import { createSshKeysRepository } from '../../ssh-keys/index.ts';
import type { InstanceDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { createInstancesRepository, type InstanceRow } from '../instances.repository.ts';

/** The SSH access an instance's container gets now: the owner's keys as they are, and its switch. */
export async function sshAccessFor(
  deps: Pick<InstanceDeps, 'db'>,
  inst: Pick<InstanceRow, 'userId' | 'sshPasswordAuth'>,
): Promise<SshAccess> {
  return {
    authorizedKeys: await createSshKeysRepository(deps).lines(inst.userId),
    passwordAuth: inst.sshPasswordAuth,
  };
}

/**
 * Writes the SSH access into the started container where the driver can (installSshAccess).
 * A failure is logged, not fatal: the instance runs, the root password works unless switched
 * off, and the next power on writes it again.
 */
export async function installSshAccess(
  deps: Pick<InstanceDeps, 'db' | 'log'>,
  driver: HostDriver,
  inst: Pick<InstanceRow, 'id' | 'userId' | 'sshPasswordAuth'>,
  containerId: string,
): Promise<void> {
  if (!driver.installSshAccess) return;
  try {
    await driver.installSshAccess(containerId, await sshAccessFor(deps, inst));
  } catch (err) {
    deps.log.warn({ err, instanceId: inst.id }, 'installing SSH keys into the container failed');
  }
}

/** The owner turns password sign-in on or off; the container gets it at the next create or power on. */
export async function setSshPasswordAuth(
  deps: Pick<InstanceDeps, 'db'>,
  inst: Pick<InstanceRow, 'id' | 'status'>,
  passwordAuth: boolean,
): Promise<InstanceRow> {
  if (inst.status === 'RELEASED' || inst.status === 'RELEASING' || inst.status === 'FAILED')
    throw instanceErrors.badState(inst.status, '设置密码登录');
  const row = await createInstancesRepository(deps).update(inst.id, { sshPasswordAuth: passwordAuth });
  if (!row) throw instanceErrors.notFound();
  return row;
}
