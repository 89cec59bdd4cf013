import type { BillingType, InstanceStatus, PackageType } from '@gpu/shared';

/** States in which a pay-as-you-go instance accrues cost (its container may still be running). */
export const ACCRUING: InstanceStatus[] = ['RUNNING', 'STOPPING'];
/** States whose driver call may have been cut short by a crash. */
export const TRANSITIONAL: InstanceStatus[] = ['CREATING', 'STOPPING', 'STARTING', 'RELEASING'];

/**
 * Pay-as-you-go accrual (DESIGN §5): closed periods plus floor(rate × seconds / 3600) of the
 * current one. Computed from the period start, never incrementally, so charging [t0, t1) in
 * any number of runs charges exactly what one run would.
 */
export function accruedAt(
  i: { hourlyRate: number; accruedClosed: number; runningSince: Date | null },
  now: Date,
): number {
  if (!i.runningSince) return i.accruedClosed;
  const ms = Math.max(0, now.getTime() - i.runningSince.getTime());
  return i.accruedClosed + Math.floor((i.hourlyRate * Math.floor(ms / 1000)) / 3600);
}

const PERIOD_MS: Record<PackageType, number> = {
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
  monthly: 30 * 86_400_000,
};

/** A package's end: `duration` periods after `from` (a month is 30 days, as SPEC's 720 hours). */
export function packageEnd(billingType: BillingType, duration: number, from: Date): Date | null {
  if (billingType === 'hourly') return null;
  return new Date(from.getTime() + PERIOD_MS[billingType] * duration);
}

/** Why an instance stopped, in words for the user. */
export const STOP_REASONS = {
  user: '用户关机',
  arrears: '余额不足，系统已自动关机',
  expired: '包期已到期，系统已自动关机',
  admin: '管理员强制关机',
  retention: '关机超过保留期限，系统已释放',
  provider: '海外实例已在 vast.ai 上停止，系统已停止计费',
} as const;

/** The sealed JupyterLab token; an instance made before tokens of their own has the root password. */
export const jupyterTokenEncOf = (i: { jupyterTokenEnc: string | null; rootPasswordEnc: string }) =>
  i.jupyterTokenEnc ?? i.rootPasswordEnc;
