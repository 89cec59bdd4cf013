import type { InstanceStatus } from '@gpu/shared';
import { DOC_PREFIXES, type DocPrefix } from '../../platform/doc-no.ts';

/** States in which a pay-as-you-go instance accrues cost (its container may still be running). */
export const ACCRUING: InstanceStatus[] = ['RUNNING', 'STOPPING'];
/** States whose driver call may have been cut short by a crash. */
export const TRANSITIONAL: InstanceStatus[] = [
  'CREATING',
  'STOPPING',
  'STARTING',
  'RELEASING',
  'RESETTING',
  'SAVING_IMAGE',
];

/**
 * The rate the current running period accrues at: no-GPU mode's while it runs without GPUs
 * (issue 30), else the instance's own. A period has one mode: it changes only at a power on.
 */
export const currentRate = (i: { hourlyRate: number; noGpuRate?: number | null }) =>
  i.noGpuRate ?? i.hourlyRate;

/**
 * Pay-as-you-go accrual (DESIGN §5): closed periods plus floor(rate × seconds / 3600) of the
 * current one. Computed from the period start, never incrementally, so charging [t0, t1) in
 * any number of runs charges exactly what one run would.
 */
export function accruedAt(
  i: { hourlyRate: number; noGpuRate?: number | null; accruedClosed: number; runningSince: Date | null },
  now: Date,
): number {
  if (!i.runningSince) return i.accruedClosed;
  const ms = Math.max(0, now.getTime() - i.runningSince.getTime());
  return i.accruedClosed + Math.floor((currentRate(i) * Math.floor(ms / 1000)) / 3600);
}

/** A package's end (the shared rule the order confirm shows too). */
export { packageEnd } from '@gpu/shared';

/** Why an instance stopped, in words for the user. */
export const STOP_REASONS = {
  user: '用户关机',
  arrears: '余额不足，系统已自动关机',
  expired: '包期已到期，系统已自动关机',
  admin: '管理员强制关机',
  retention: '关机超过保留期限，系统已释放',
  provider: '海外实例已在 vast.ai 上停止，系统已停止计费',
  // The guards module's power offs (issue 31).
  idle: '因GPU空闲自动关机',
  scheduled: '定时关机',
  cap: '达到消费上限自动关机',
} as const;

/** The sealed JupyterLab token; an instance made before tokens of their own has the root password. */
export const jupyterTokenEncOf = (i: { jupyterTokenEnc: string | null; rootPasswordEnc: string }) =>
  i.jupyterTokenEnc ?? i.rootPasswordEnc;

/** Orders (what buys, extends or refunds an instance) are numbered OD…; metering lines are bills, BL…. */
export const recordNoPrefix = (kind: string): DocPrefix =>
  kind === 'metering' || kind === 'nogpu' ? DOC_PREFIXES.bill : DOC_PREFIXES.order;
