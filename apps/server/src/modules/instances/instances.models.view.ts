import { type Instance, unitsToYuan } from '@gpu/shared';
import type { SecretBox } from '../../platform/secret-box.ts';
import { capabilitiesOf, DATA_MOUNT_PATH } from '../hosts/index.ts';
import { jupyterTokenEncOf } from './instances.models.ts';
import type { InstanceListed } from './instances.repository.ts';
import { noGpuOffered } from './lifecycle/no-gpu.usecases.ts';

/** The instance as its owner sees it: SSH command, password and JupyterLab only while it has a container. */
export function toInstanceView(
  i: InstanceListed,
  ctx: { now: Date; box: SecretBox; retentionDays: number },
): Instance {
  const reachable = i.status === 'RUNNING' && i.sshPort !== null;
  const releaseAt =
    i.status === 'STOPPED' && i.stoppedAt
      ? new Date(i.stoppedAt.getTime() + ctx.retentionDays * 86_400_000).toISOString()
      : null;
  return {
    id: i.id,
    uuid: String(i.id),
    name: i.name,
    status: i.status,
    billingType: i.billingType,
    gpuName: i.gpuModel,
    gpuCount: i.gpuCount,
    regionName: i.regionName,
    hostName: i.hostName,
    image: i.image,
    hourlyPrice: unitsToYuan(i.hourlyRate),
    packagePrice: i.packageUnitPrice === null ? null : unitsToYuan(i.packageUnitPrice * i.gpuCount),
    duration: i.duration,
    charged: unitsToYuan(i.charged),
    createdAt: i.createdAt.toISOString(),
    runningSince: i.runningSince?.toISOString() ?? null,
    expiresAt: i.expiresAt?.toISOString() ?? null,
    stoppedAt: i.stoppedAt?.toISOString() ?? null,
    releasedAt: i.status === 'RELEASED' ? (i.releasedAt?.toISOString() ?? null) : null,
    releaseAt,
    stopReason: i.stopReason,
    warning: i.warning,
    containerId: i.containerId,
    sshCommand: reachable ? `ssh -p ${i.sshPort} root@${i.sshHost || i.publicAddress || i.hostName}` : null,
    sshPassword: i.containerId ? ctx.box.open(i.rootPasswordEnc) : null,
    sshPasswordAuth: i.sshPasswordAuth,
    jupyterUrl:
      reachable && i.jupyterPort ? `http://${i.publicAddress || i.hostName}:${i.jupyterPort}/lab` : null,
    jupyterToken: i.containerId ? ctx.box.open(jupyterTokenEncOf(i)) : null,
    dataMountPath: capabilitiesOf(i.hostDriver).dataVolume ? DATA_MOUNT_PATH : null,
    resettable: capabilitiesOf(i.hostDriver).recreate,
    cloneable: capabilitiesOf(i.hostDriver).clone,
    imageSaveable: capabilitiesOf(i.hostDriver).userImages,
    machineId: i.skuId,
    noGpu: i.noGpuRate !== null,
    noGpuPrice:
      i.regionNoGpuPrice !== undefined && noGpuOffered(i.billingType, i.hostDriver)
        ? unitsToYuan(i.regionNoGpuPrice)
        : null,
    extraPorts: i.extraPorts.map((p) => ({
      ...p,
      url: reachable ? `http://${i.publicAddress || i.hostName}:${p.hostPort}` : null,
    })),
  };
}
