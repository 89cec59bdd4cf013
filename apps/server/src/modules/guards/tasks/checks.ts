import { createSamplesRepository, type GpuActivity } from '../../monitoring/index.ts';
import { createNoticesRepository } from '../../notices/index.ts';
import type { GuardsDeps } from '../guards.deps.ts';
import { effectiveIdle, idleClockStart, idleDecision, idleWindows, scheduleDue } from '../guards.models.ts';
import {
  type GuardNotice,
  type GuardStop,
  idleStop,
  idleWarning,
  scheduleStop,
  scheduleWarning,
} from '../guards.notices.ts';
import { createGuardsRepository } from '../guards.repository.ts';

export type Candidate = Awaited<ReturnType<ReturnType<typeof createGuardsRepository>['candidates']>>[number];
type Warn = (userId: number, instanceId: number | null, n: GuardNotice) => Promise<void>;
const MIN = 60_000;

/** Has GPUs to watch: not in no-GPU mode (issue 30), at least one GPU. */
const hasGpus = (i: Candidate['inst']) => i.gpuCount > 0 && i.noGpuRate === null;

/** The window each idle-guarded instance's decision needs samples of (null: none yet). */
function idleWindowOf(row: Candidate, now: Date) {
  const { inst, own, account } = row;
  const s = effectiveIdle(inst, own, account);
  if (!s.enabled || !hasGpus(inst)) return null;
  const clockStart = idleClockStart(inst.runningSince as Date, own);
  const warnedAt = own?.idleWarnedAt ?? null;
  const { warnFrom } = idleWindows(s, now);
  const since =
    warnedAt !== null && warnedAt >= clockStart ? warnedAt : warnFrom >= clockStart ? warnFrom : null;
  return { s, clockStart, warnedAt, since };
}

/**
 * The GPU activity every idle-guarded candidate needs, one query per distinct window start
 * (instances on the same settings without a warning share theirs), not one per instance.
 */
export async function idleActivity(deps: GuardsDeps, rows: Candidate[], now: Date) {
  const bySince = new Map<number, number[]>();
  for (const row of rows) {
    const since = idleWindowOf(row, now)?.since;
    if (since) bySince.set(since.getTime(), [...(bySince.get(since.getTime()) ?? []), row.inst.id]);
  }
  const out = new Map<number, GpuActivity>();
  const samples = createSamplesRepository(deps);
  for (const [since, ids] of bySince) {
    for (const [id, act] of await samples.gpuActivitySince(ids, new Date(since))) out.set(id, act);
  }
  return out;
}

/**
 * Idle auto-shutdown of one running instance (idleDecision) with its window's activity: the
 * warning is recorded by a conditional update and written in the same short transaction, so
 * of two replicas one warns. Returns the stop when it is due.
 */
export async function checkIdle(
  deps: GuardsDeps,
  row: Candidate,
  now: Date,
  activity: Map<number, GpuActivity>,
): Promise<GuardStop | null> {
  const { inst } = row;
  const w = idleWindowOf(row, now);
  if (!w?.since) return null;
  const { s, clockStart, warnedAt } = w;
  const runningSince = inst.runningSince as Date;
  const found = activity.get(inst.id);
  const act = warnedAt !== null && w.since === warnedAt ? { sinceWarning: found } : { warnActivity: found };
  const decision = idleDecision(s, { clockStart, warnedAt }, now, act);
  if (decision === 'off') return idleStop(inst, s, runningSince);
  if (decision === 'withdraw' && warnedAt)
    await createGuardsRepository(deps).withdrawIdleWarning(inst.id, warnedAt);
  if (decision === 'warn') {
    await deps.db.transaction(async (tx) => {
      if (!(await createGuardsRepository({ db: tx }).markIdleWarned(inst.id, inst.userId, warnedAt, now)))
        return;
      const shutdownAt = new Date(now.getTime() + s.warnMinutes * MIN);
      await createNoticesRepository({ db: tx }).notify({
        userId: inst.userId,
        instanceId: inst.id,
        ...idleWarning(inst, s, shutdownAt, now),
      });
    });
  }
  return null;
}

/**
 * Scheduled shutdown of one running instance: warned once `lead` before (per due time), taken
 * off the row when due (a conditional update: one replica gets it) and then powered off. A time
 * that passed before the current run began is stale and dropped without a stop.
 */
export async function checkSchedule(
  deps: GuardsDeps,
  row: Candidate,
  now: Date,
  warn: Warn,
): Promise<GuardStop | null> {
  const { inst, own, account } = row;
  const runningSince = inst.runningSince as Date;
  const due = scheduleDue(own, runningSince);
  if (!own || !due) return null;
  const repo = createGuardsRepository(deps);
  if (due < runningSince) {
    await repo.takeSchedule(own);
    return null;
  }
  if (now >= due) return (await repo.takeSchedule(own)) ? scheduleStop(inst, due) : null;
  const lead = effectiveIdle({ billingType: 'hourly' }, own, account).warnMinutes * MIN;
  const warned = own.scheduleWarnedFor?.getTime() === due.getTime();
  if (!warned && now.getTime() >= due.getTime() - lead && (await repo.markScheduleWarned(inst.id, due))) {
    await warn(inst.userId, inst.id, scheduleWarning(inst, due));
  }
  return null;
}
