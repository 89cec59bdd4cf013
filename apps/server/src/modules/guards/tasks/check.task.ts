import { isAppError } from '../../../platform/errors.ts';
import { powerOff } from '../../instances/index.ts';
import { createNoticesRepository } from '../../notices/index.ts';
import type { GuardsDeps } from '../guards.deps.ts';
import { capLevel, capPeriods, runCost } from '../guards.models.ts';
import {
  accountCapStop,
  accountCapWarning,
  type CapPeriod,
  type GuardNotice,
  type GuardStop,
  instanceCapStop,
  instanceCapWarning,
} from '../guards.notices.ts';
import { createGuardsRepository } from '../guards.repository.ts';
import { type Candidate, checkIdle, checkSchedule, idleActivity } from './checks.ts';

const SYSTEM = { kind: 'system' } as const;

/**
 * guards.check, every minute on every replica: idle auto-shutdown, scheduled shutdown and
 * spending caps of running instances. Warnings are written under conditional updates or once
 * per dedupe key; a power off goes through the instances' own path (a job after commit, the
 * row lock and state check of `powerOff`), so two replicas deciding the same stop start it once
 * and the other is refused (not RUNNING any more) and ignores it. Nothing slow runs inside a
 * transaction: each warning is its own short one.
 */
export async function runGuardsCheck(deps: GuardsDeps) {
  const now = deps.clock.now();
  const repo = createGuardsRepository(deps);
  const rows = await repo.candidates();
  const stops = new Map<number, GuardStop>();
  const stop = (id: number, s: GuardStop | null) => {
    if (s && !stops.has(id)) stops.set(id, s);
  };
  let warnings = 0;
  const warn = async (userId: number, instanceId: number | null, n: GuardNotice) => {
    const id = await createNoticesRepository(deps).notify({ userId, instanceId, ...n });
    if (id !== null) warnings++;
  };

  await checkAccountCaps(deps, rows, now, warn, stop);
  const activity = await idleActivity(deps, rows, now);
  for (const row of rows) {
    const { inst, own } = row;
    const since = inst.runningSince as Date;
    const cap = own?.spendingCap ?? null;
    if (inst.billingType === 'hourly' && cap !== null) {
      const spent = runCost(inst, now);
      const level = capLevel(spent, cap);
      if (level === 'stop') stop(inst.id, instanceCapStop(inst, cap, since));
      else if (level === 'warn')
        await warn(inst.userId, inst.id, instanceCapWarning(inst, spent, cap, since));
    }
    stop(inst.id, await checkSchedule(deps, row, now, warn));
    stop(inst.id, await checkIdle(deps, row, now, activity));
  }
  let stopped = 0;
  for (const [id, s] of stops) {
    try {
      await powerOff(deps.instances, id, SYSTEM, s.why, { note: s.note, notice: () => s.notice });
      stopped++;
    } catch (err) {
      // Another replica (or the owner) powered it off first: nothing left to do.
      if (isAppError(err) && err.code === 'instances.bad_state') continue;
      deps.log.error({ err, instanceId: id }, 'guard power-off failed; the next check retries it');
    }
  }
  return { checked: rows.length, warnings, stopped };
}

/**
 * Account caps (Asia/Shanghai day and month): pay-as-you-go spend of owners with a cap and a
 * running pay-as-you-go instance; at 80 % a warning, at the cap every such instance stops.
 */
async function checkAccountCaps(
  deps: GuardsDeps,
  rows: Candidate[],
  now: Date,
  warn: (userId: number, instanceId: number | null, n: GuardNotice) => Promise<void>,
  stop: (id: number, s: GuardStop) => void,
) {
  const capped = rows.filter(
    (r) => r.inst.billingType === 'hourly' && (r.account?.dailyCap != null || r.account?.monthlyCap != null),
  );
  if (capped.length === 0) return;
  const users = [...new Set(capped.map((r) => r.inst.userId))];
  const { day, month } = capPeriods(now);
  const periods: { p: CapPeriod; since: Date; cap: (r: Candidate) => number | null }[] = [
    { p: { scope: 'day', label: day.label }, since: day.start, cap: (r) => r.account?.dailyCap ?? null },
    {
      p: { scope: 'month', label: month.label },
      since: month.start,
      cap: (r) => r.account?.monthlyCap ?? null,
    },
  ];
  const repo = createGuardsRepository(deps);
  for (const { p, since, cap } of periods) {
    const spent = await repo.spentSince(users, since, now);
    const warned = new Set<number>();
    for (const r of capped) {
      const limit = cap(r);
      const level = capLevel(spent.get(r.inst.userId) ?? 0, limit);
      if (limit === null || level === 'none') continue;
      if (level === 'stop') stop(r.inst.id, accountCapStop(r.inst, p, limit));
      else if (!warned.has(r.inst.userId)) {
        warned.add(r.inst.userId);
        await warn(r.inst.userId, null, accountCapWarning(p, spent.get(r.inst.userId) ?? 0, limit));
      }
    }
  }
}
