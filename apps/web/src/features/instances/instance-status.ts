import type { Instance } from '@gpu/shared/instances';
import type { InstanceStatus } from '@gpu/shared/labels';

/** antd Tag colours (preset status colours) per run state of DESIGN §6. */
type TagColor = 'processing' | 'success' | 'default' | 'error' | 'warning';

export interface StatusMeta {
  color: TagColor;
  /** A driver call is in flight: the state changes by itself soon. */
  transitional: boolean;
}

export const STATUS_META: Record<InstanceStatus, StatusMeta> = {
  CREATING: { color: 'processing', transitional: true },
  RUNNING: { color: 'success', transitional: false },
  STOPPING: { color: 'processing', transitional: true },
  STOPPED: { color: 'default', transitional: false },
  STARTING: { color: 'processing', transitional: true },
  RELEASING: { color: 'processing', transitional: true },
  RELEASED: { color: 'default', transitional: false },
  RESETTING: { color: 'processing', transitional: true },
  SAVING_IMAGE: { color: 'processing', transitional: true },
  FAILED: { color: 'error', transitional: false },
};

export const isTransitional = (status: InstanceStatus) => STATUS_META[status].transitional;

export type InstanceAction = 'powerOff' | 'powerOn' | 'release' | 'renew';
/** What a row offers: the state changes above, plus renaming and the connection drawer. */
export type RowAction =
  | InstanceAction
  | 'rename'
  | 'connect'
  | 'recreate'
  | 'dismiss'
  | 'reset'
  | 'changeImage'
  | 'clone'
  | 'saveImage'
  | 'powerOnNoGpu'
  | 'autoShutdown'
  | 'monitor';

/**
 * 监控: any instance that has run (samples stay for 30 days, so a powered-off one shows its
 * history); not a failed create, not a released record.
 */
export const canMonitor = (inst: Pick<Instance, 'status'>) =>
  inst.status !== 'FAILED' && inst.status !== 'RELEASED' && inst.status !== 'CREATING';

/** Reset system / change image: where the host can recreate, and only once powered off. */
export const canReset = (inst: Pick<Instance, 'status' | 'resettable'>) =>
  inst.resettable && inst.status === 'STOPPED';

/** Clone: where the host can clone, and only once powered off (its disks are then a consistent copy). */
export const canClone = (inst: Pick<Instance, 'status' | 'cloneable'>) =>
  inst.cloneable && inst.status === 'STOPPED';

/** No-GPU mode (无卡模式开机): offered where `noGpuPrice` is set (pay-as-you-go), once powered off. */
export const canPowerOnNoGpu = (inst: Pick<Instance, 'status' | 'noGpuPrice'>) =>
  inst.noGpuPrice !== null && inst.status === 'STOPPED';

/** Running (or starting, stopping) without GPUs, billed at the no-GPU price. */
export const inNoGpuMode = (inst: Pick<Instance, 'status' | 'noGpu'>) =>
  inst.noGpu && (inst.status === 'RUNNING' || inst.status === 'STARTING' || inst.status === 'STOPPING');

/** JupyterLab's address with its token, so it opens without the token prompt. */
export const jupyterLink = (inst: Pick<Instance, 'jupyterUrl' | 'jupyterToken'>) =>
  inst.jupyterUrl
    ? inst.jupyterToken
      ? `${inst.jupyterUrl}?token=${encodeURIComponent(inst.jupyterToken)}`
      : inst.jupyterUrl
    : null;

/** `ssh -p 2201 root@host` → { host, port } (for IDE settings and the port-forward line). */
export function sshTarget(sshCommand: string): { host: string; port: string; user: string } | null {
  const m = /-p\s+(\d+)\s+(?:([^@\s]+)@)?(\S+)/.exec(sshCommand);
  return m ? { port: m[1] as string, user: m[2] ?? 'root', host: m[3] as string } : null;
}

export const TENSORBOARD_PORT = 6006;

/** The SSH command with a local port forward for TensorBoard inserted after `ssh`. */
export const tunnelCommand = (sshCommand: string, port = TENSORBOARD_PORT) =>
  sshCommand.replace(/^ssh\s+/, `ssh -L ${port}:localhost:${port} `);

export const isPackage = (inst: Pick<Instance, 'billingType'>) => inst.billingType !== 'hourly';

/** A package whose paid time is over (it cannot be powered on before a renewal). */
export const isExpired = (inst: Pick<Instance, 'billingType' | 'expiresAt'>, now: Date) =>
  isPackage(inst) && inst.expiresAt !== null && new Date(inst.expiresAt).getTime() <= now.getTime();

/**
 * Which actions an instance allows now, by the server's rules (lifecycle.usecases.ts):
 * power off from RUNNING; power on from STOPPED (a package only before it expires); release
 * from RUNNING or STOPPED; renewal for packages that are not released, failed or releasing.
 */
export function allowedActions(
  inst: Pick<Instance, 'status' | 'billingType' | 'expiresAt'>,
  now: Date = new Date(),
): Record<InstanceAction, boolean> {
  const { status } = inst;
  return {
    powerOff: status === 'RUNNING',
    powerOn: status === 'STOPPED' && !isExpired(inst, now),
    release: status === 'RUNNING' || status === 'STOPPED',
    renew: isPackage(inst) && !['RELEASED', 'FAILED', 'RELEASING', 'CREATING'].includes(status),
  };
}

/** The state an action moves an instance into while its driver call runs (shown at once). */
export const PENDING_STATUS: Record<Exclude<InstanceAction, 'renew'>, InstanceStatus> = {
  powerOff: 'STOPPING',
  powerOn: 'STARTING',
  release: 'RELEASING',
};

export const POLL_FAST_MS = 2_000;
export const POLL_SLOW_MS = 15_000;

/** Poll every 2 s while any instance is in a transitional state, else every 15 s. */
export function pollInterval(instances: readonly Pick<Instance, 'status'>[] | undefined): number {
  return instances?.some((i) => isTransitional(i.status)) ? POLL_FAST_MS : POLL_SLOW_MS;
}

const HOUR = 3_600_000;
/**
 * A package that ends within this long is flagged so the user can renew in time (a share of
 * its period: a daily package is not "expiring" the moment it is bought).
 */
export const EXPIRY_WARNING_MS = { daily: 3 * HOUR, weekly: 24 * HOUR, monthly: 72 * HOUR } as const;

export type NoticeLevel = 'error' | 'warning' | 'info';
export interface InstanceNotice {
  level: NoticeLevel;
  kind: 'server' | 'expiring' | 'release';
  /** For `expiring` and `release`: the instant the text names. */
  at?: string;
  text?: string;
}

/**
 * What the user should be told about an instance: the server's warning (arrears, expiry,
 * coming release) first; else a package running out soon
 * (EXPIRY_WARNING_MS); else when a stopped
 * instance's data will be released.
 */
export function instanceNotice(
  inst: Pick<Instance, 'status' | 'billingType' | 'expiresAt' | 'warning' | 'releaseAt'>,
  now: Date = new Date(),
): InstanceNotice | null {
  if (inst.status === 'RELEASED' || inst.status === 'FAILED') return null;
  if (inst.warning) {
    const level: NoticeLevel = inst.status === 'STOPPED' || inst.status === 'STOPPING' ? 'error' : 'warning';
    return { level, kind: 'server', text: inst.warning };
  }
  if (inst.billingType !== 'hourly' && inst.expiresAt && inst.status === 'RUNNING') {
    const left = new Date(inst.expiresAt).getTime() - now.getTime();
    if (left > 0 && left <= EXPIRY_WARNING_MS[inst.billingType])
      return { level: 'warning', kind: 'expiring', at: inst.expiresAt };
  }
  if (inst.status === 'STOPPED' && inst.releaseAt)
    return { level: 'info', kind: 'release', at: inst.releaseAt };
  return null;
}
