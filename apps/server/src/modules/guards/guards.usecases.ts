import { unitsToYuan, yuanToUnits } from '@gpu/shared';
import type {
  AutoShutdown,
  AutoShutdownInput,
  AutoShutdownMarker,
  GuardPending,
  SpendingCaps,
  SpendingCapsInput,
} from '@gpu/shared/guards';
import type { GuardsDeps } from './guards.deps.ts';
import { guardsErrors } from './guards.errors.ts';
import {
  accountIdle,
  capPeriods,
  effectiveIdle,
  type InstanceGuardRow,
  idleClockStart,
  runCost,
  scheduleDue,
  warningHolds,
} from './guards.models.ts';
import { createGuardsRepository } from './guards.repository.ts';

/** The instance as the guards see it (the owner's row from the instances module). */
export interface GuardedInstance {
  id: number;
  userId: number;
  status: string;
  billingType: string;
  runningSince: Date | null;
  hourlyRate: number;
  noGpuRate: number | null;
}

const MIN = 60_000;

/** What is announced or scheduled for a running instance, earliest first. */
function pendingOf(
  inst: Pick<GuardedInstance, 'status' | 'runningSince' | 'billingType'>,
  own: InstanceGuardRow | null | undefined,
  warnMinutes: number,
): GuardPending[] {
  if (inst.status !== 'RUNNING' || !inst.runningSince || !own) return [];
  const out: GuardPending[] = [];
  const due = scheduleDue(own, inst.runningSince);
  if (due && due >= inst.runningSince) {
    out.push({
      kind: 'scheduled',
      shutdownAt: due.toISOString(),
      warned: own.scheduleWarnedFor?.getTime() === due.getTime(),
    });
  }
  if (warningHolds(own.idleWarnedAt, idleClockStart(inst.runningSince, own))) {
    const at = new Date(own.idleWarnedAt.getTime() + warnMinutes * MIN);
    out.push({ kind: 'idle', shutdownAt: at.toISOString(), warned: true });
  }
  return out.sort((a, b) => a.shutdownAt.localeCompare(b.shutdownAt));
}

export async function getAutoShutdown(deps: GuardsDeps, inst: GuardedInstance): Promise<AutoShutdown> {
  const repo = createGuardsRepository(deps);
  const own = await repo.instanceSettings(inst.id);
  const account = await repo.accountSettings(inst.userId);
  const effective = effectiveIdle(inst, own, account);
  // A set time that passed (the instance was off then) is no schedule any more.
  const at = own?.scheduleAt && own.scheduleAt > deps.clock.now() ? own.scheduleAt : null;
  return {
    instanceId: inst.id,
    idle: own?.idleCustom ? effective : null,
    effectiveIdle: effective,
    schedule: {
      mode: at ? 'at' : own?.scheduleHours ? 'after' : 'off',
      at: at?.toISOString() ?? null,
      hours: own?.scheduleHours ?? null,
    },
    spendingCap: own?.spendingCap != null ? unitsToYuan(own.spendingCap) : null,
    spentThisRun: unitsToYuan(inst.status === 'RUNNING' ? runCost(inst, deps.clock.now()) : 0),
    pending: pendingOf(inst, own, effective.warnMinutes)[0] ?? null,
  };
}

/**
 * Saves an instance's guards. Saving restarts the idle clock (the new settings watch from now)
 * and drops warnings already sent for the old ones. A time in the past and a cap on a package
 * (prepaid: nothing accrues) are refused naming the field.
 */
export async function putAutoShutdown(deps: GuardsDeps, inst: GuardedInstance, input: AutoShutdownInput) {
  const now = deps.clock.now();
  if (inst.status === 'RELEASED' || inst.status === 'RELEASING' || inst.status === 'FAILED')
    throw guardsErrors.released();
  const { schedule } = input;
  if (schedule.mode === 'at' && Date.parse(schedule.at) <= now.getTime()) throw guardsErrors.scheduleInPast();
  if (input.spendingCap !== null && inst.billingType !== 'hourly') throw guardsErrors.spendingCapHourlyOnly();
  const idle = input.idle;
  await createGuardsRepository(deps).saveInstance(inst.id, inst.userId, {
    idleCustom: idle !== null,
    ...(idle
      ? {
          idleEnabled: idle.enabled,
          idleThreshold: idle.thresholdPercent,
          idleMinutes: idle.idleMinutes,
          warnMinutes: idle.warnMinutes,
        }
      : {}),
    idleResetAt: now,
    idleWarnedAt: null,
    scheduleAt: schedule.mode === 'at' ? new Date(schedule.at) : null,
    scheduleHours: schedule.mode === 'after' ? schedule.hours : null,
    scheduleWarnedFor: null,
    spendingCap: input.spendingCap === null ? null : yuanToUnits(input.spendingCap),
  });
  return getAutoShutdown(deps, inst);
}

/** 保持运行: the idle clock starts again now (a pending idle warning is withdrawn). */
export async function keepRunning(deps: GuardsDeps, inst: GuardedInstance) {
  if (inst.status !== 'RUNNING') throw guardsErrors.notRunning();
  await createGuardsRepository(deps).resetIdle(inst.id, inst.userId, deps.clock.now());
  return getAutoShutdown(deps, inst);
}

/** The console's markers: the user's running instances with a shutdown scheduled or announced. */
export async function autoShutdownMarkers(deps: GuardsDeps, userId: number): Promise<AutoShutdownMarker[]> {
  const repo = createGuardsRepository(deps);
  const account = await repo.accountSettings(userId);
  const rows = await repo.forUser(userId);
  return rows.flatMap(({ inst, own }) =>
    pendingOf(inst, own, effectiveIdle(inst, own, account).warnMinutes).map((p) => ({
      instanceId: inst.id,
      ...p,
    })),
  );
}

export async function getSpendingCaps(deps: GuardsDeps, userId: number): Promise<SpendingCaps> {
  const now = deps.clock.now();
  const repo = createGuardsRepository(deps);
  const account = await repo.accountSettings(userId);
  const { day, month } = capPeriods(now);
  const spentToday = (await repo.spentSince([userId], day.start, now)).get(userId) ?? 0;
  const spentThisMonth = (await repo.spentSince([userId], month.start, now)).get(userId) ?? 0;
  return {
    dailyCap: account?.dailyCap != null ? unitsToYuan(account.dailyCap) : null,
    monthlyCap: account?.monthlyCap != null ? unitsToYuan(account.monthlyCap) : null,
    idleDefault: accountIdle(account),
    spentToday: unitsToYuan(spentToday),
    spentThisMonth: unitsToYuan(spentThisMonth),
  };
}

export async function putSpendingCaps(deps: GuardsDeps, userId: number, input: SpendingCapsInput) {
  const { dailyCap, monthlyCap, idleDefault: d } = input;
  if (dailyCap !== null && monthlyCap !== null && dailyCap > monthlyCap)
    throw guardsErrors.dailyOverMonthly();
  await createGuardsRepository(deps).saveAccount(userId, {
    dailyCap: dailyCap === null ? null : yuanToUnits(dailyCap),
    monthlyCap: monthlyCap === null ? null : yuanToUnits(monthlyCap),
    idleEnabled: d.enabled,
    idleThreshold: d.thresholdPercent,
    idleMinutes: d.idleMinutes,
    warnMinutes: d.warnMinutes,
  });
  return getSpendingCaps(deps, userId);
}
