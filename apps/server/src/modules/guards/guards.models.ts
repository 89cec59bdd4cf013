import { floorToFen } from '@gpu/shared';
import { IDLE_SETTINGS_DEFAULT, type IdleSettings, SPENDING_CAP_WARN_PERCENT } from '@gpu/shared/guards';
import { SAMPLE_INTERVAL_MS } from '@gpu/shared/monitoring';
import { shanghaiDayStart, shanghaiToday, shanghaiWallTime } from '@gpu/shared/time';
import type { GpuActivity } from '../monitoring/index.ts';
import type { guardAccountSettings, guardInstanceSettings } from './guards.tables.ts';

export type InstanceGuardRow = typeof guardInstanceSettings.$inferSelect;
export type AccountGuardRow = typeof guardAccountSettings.$inferSelect;

const MIN = 60_000;
/**
 * A window counts as watched when its first sample came within two sampling intervals of its
 * start: one missed sample is tolerated, a gap (sampling down, instance just started) is not.
 */
export const COVERAGE_SLACK_MS = 2 * SAMPLE_INTERVAL_MS;

const idleOf = (r: {
  idleEnabled: boolean;
  idleThreshold: number;
  idleMinutes: number;
  warnMinutes: number;
}): IdleSettings => ({
  enabled: r.idleEnabled,
  thresholdPercent: r.idleThreshold,
  idleMinutes: r.idleMinutes,
  warnMinutes: r.warnMinutes,
});

/** The account's idle default (the shared default when the user never saved one). */
export const accountIdle = (a: AccountGuardRow | null | undefined): IdleSettings =>
  a ? idleOf(a) : IDLE_SETTINGS_DEFAULT;

/**
 * The idle settings that apply: the instance's own, else the account default — which guards
 * pay-as-you-go instances only (a package's time is paid already; its owner may still set it
 * on the instance itself).
 */
export function effectiveIdle(
  inst: { billingType: string },
  own: InstanceGuardRow | null | undefined,
  account: AccountGuardRow | null | undefined,
): IdleSettings {
  if (own?.idleCustom) return idleOf(own);
  const def = accountIdle(account);
  return inst.billingType === 'hourly' ? def : { ...def, enabled: false };
}

/** The idle clock's start: the current run's start, or a later 保持运行 / settings change. */
export const idleClockStart = (runningSince: Date, own: InstanceGuardRow | null | undefined) =>
  own?.idleResetAt && own.idleResetAt > runningSince ? own.idleResetAt : runningSince;

/** Every GPU stayed under the threshold over a window that samples cover from its start. */
export const idleOver = (act: GpuActivity | undefined, windowStart: Date, threshold: number) =>
  act !== undefined &&
  act.samples > 0 &&
  act.firstAt.getTime() <= windowStart.getTime() + COVERAGE_SLACK_MS &&
  act.maxUtil < threshold;

/** The window an idle warning looks at, at `now`: the duration less the lead. */
export const idleWindows = (s: IdleSettings, now: Date) => ({
  warnFrom: new Date(now.getTime() - (s.idleMinutes - s.warnMinutes) * MIN),
});

/** A warning is still good for the current stretch when it was sent after the clock's start. */
export const warningHolds = (warnedAt: Date | null, clockStart: Date): warnedAt is Date =>
  warnedAt !== null && warnedAt.getTime() >= clockStart.getTime();

/**
 * The idle decision at `now`. Before a warning: warn once the GPUs stayed idle for the duration
 * less the lead (`warnActivity`: samples since `warnFrom`). After it (`sinceWarning`: samples
 * since the warning): any GPU busy again ends the stretch (the warning is withdrawn, the clock
 * runs on); still idle a lead later, it powers off. The window before the warning was idle
 * when it went out, so warning + lead idle is the whole duration idle.
 */
export function idleDecision(
  s: IdleSettings,
  state: { clockStart: Date; warnedAt: Date | null },
  now: Date,
  act: { warnActivity?: GpuActivity; sinceWarning?: GpuActivity },
): 'warn' | 'off' | 'withdraw' | 'none' {
  if (warningHolds(state.warnedAt, state.clockStart)) {
    const w = act.sinceWarning;
    if (w && w.samples > 0 && w.maxUtil >= s.thresholdPercent) return 'withdraw';
    const leadDone = now.getTime() >= state.warnedAt.getTime() + s.warnMinutes * MIN;
    return leadDone && idleOver(w, state.warnedAt, s.thresholdPercent) ? 'off' : 'none';
  }
  const { warnFrom } = idleWindows(s, now);
  if (warnFrom.getTime() < state.clockStart.getTime()) return 'none';
  return idleOver(act.warnActivity, warnFrom, s.thresholdPercent) ? 'warn' : 'none';
}

/** When a scheduled shutdown is due: the set time, or N hours into the current run. */
export function scheduleDue(
  own: InstanceGuardRow | null | undefined,
  runningSince: Date | null,
): Date | null {
  if (!own) return null;
  if (own.scheduleAt) return own.scheduleAt;
  if (own.scheduleHours && runningSince)
    return new Date(runningSince.getTime() + own.scheduleHours * 3_600_000);
  return null;
}

/** What the current run of a pay-as-you-go instance has cost, in whole fen (what metering posts of it). */
export function runCost(
  i: { billingType: string; hourlyRate: number; noGpuRate: number | null; runningSince: Date | null },
  now: Date,
): number {
  if (i.billingType !== 'hourly' || !i.runningSince) return 0;
  const seconds = Math.floor(Math.max(0, now.getTime() - i.runningSince.getTime()) / 1000);
  return floorToFen(Math.floor(((i.noGpuRate ?? i.hourlyRate) * seconds) / 3600));
}

/** Where spending stands against a cap (units): nothing, the 80 % warning, or the stop. */
export function capLevel(spent: number, cap: number | null): 'none' | 'warn' | 'stop' {
  if (cap === null || cap <= 0) return 'none';
  if (spent >= cap) return 'stop';
  return spent * 100 >= cap * SPENDING_CAP_WARN_PERCENT ? 'warn' : 'none';
}

/** The account caps' periods at `now`: the Asia/Shanghai day and month, their labels and starts. */
export function capPeriods(now: Date) {
  const day = shanghaiToday(now);
  const month = day.slice(0, 7);
  return {
    day: { label: day, start: shanghaiDayStart(day) },
    month: { label: month, start: shanghaiWallTime(`${month}-01T00:00:00`) },
  };
}
