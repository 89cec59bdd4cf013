import { type OpsDashboard, type OpsDashboardQuery, unitsToYuan, yuanToUnits } from '@gpu/shared';
import { DASHBOARD_PERIODS } from '@gpu/shared/ops-dashboard';
import { addDays, shanghaiDate, shanghaiDayStart, shanghaiToday } from '@gpu/shared/time';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { runExclusively } from '../../platform/tasks.ts';
import { createDashboardRepository } from './dashboard.repository.ts';

const LATEST_FAILED = 5;
const LOW_BALANCE_ROWS = 10;
/**
 * A day is rolled up once nothing of it can change: the bill line of its last hour is metered
 * until a little after midnight (later after an outage), so a day waits this long past its end.
 */
export const DAY_FINAL_AFTER_MS = 6 * 3_600_000;
export const ROLL_UP_INTERVAL_MS = 10 * 60_000;

/** The admin dashboard for a period of Shanghai days ending today (see ops-dashboard.ts). */
export async function opsDashboard(
  { db, now }: { db: Db; now: Now },
  q: OpsDashboardQuery,
): Promise<OpsDashboard> {
  const at = now();
  const to = shanghaiToday(at);
  const from = addDays(to, -(q.days - 1));
  const start = shanghaiDayStart(from);
  const repo = createDashboardRepository({ db });
  const [byDay, byModel, byHost, failed, stale, low] = await Promise.all([
    repo.trend(from, q.tenantId),
    repo.occupancyByModel(q.tenantId),
    repo.occupancyByHost(q.tenantId),
    repo.failedCreates(start, LATEST_FAILED, q.tenantId),
    repo.staleHosts(new Date(at.getTime() - q.staleMinutes * 60_000), q.tenantId),
    repo.lowBalance(yuanToUnits(q.lowBalance), LOW_BALANCE_ROWS, q.tenantId),
  ]);
  const trend = Array.from({ length: q.days }, (_, i) => {
    const date = addDays(from, i);
    const d = byDay.get(date);
    return {
      date,
      recharge: unitsToYuan(d?.recharge ?? 0),
      consumption: unitsToYuan(d?.consumption ?? 0),
      revenue: unitsToYuan(d?.revenue ?? 0),
    };
  });
  // Summed in units, so the totals are exact.
  const sum = (k: 'recharge' | 'consumption' | 'revenue') =>
    unitsToYuan([...byDay.entries()].filter(([d]) => d >= from).reduce((s, [, v]) => s + v[k], 0));
  return {
    days: q.days,
    from,
    to,
    trend,
    totals: { recharge: sum('recharge'), consumption: sum('consumption'), revenue: sum('revenue') },
    occupancyByModel: byModel,
    occupancyByHost: byHost,
    failedCreates: failed,
    staleHosts: { minutes: q.staleMinutes, list: stale },
    lowBalance: {
      threshold: q.lowBalance,
      count: low.count,
      list: low.list.map((u) => ({ ...u, available: unitsToYuan(u.available) })),
    },
  };
}

/**
 * The roll-up task: every day of the longest dashboard period that is over and not rolled up
 * yet, one transaction each under the day's advisory lock, so replicas share the days out instead
 * of each summing all of them: a day another holds is skipped, one it finished is seen as done.
 */
export async function rollUpDays({ db, now }: { db: Db; now: Now }): Promise<string[]> {
  const at = now();
  const firstOpen = shanghaiDate(new Date(at.getTime() - DAY_FINAL_AFTER_MS));
  const from = addDays(shanghaiToday(at), -Math.max(...DASHBOARD_PERIODS));
  const done = await createDashboardRepository({ db }).rolledDays(from, firstOpen);
  const rolled: string[] = [];
  for (let day = from; day < firstOpen; day = addDays(day, 1)) {
    if (done.has(day)) continue;
    let wrote = false;
    await runExclusively(db, `operations.roll-up-days:${day}`, async (tx) => {
      wrote = await createDashboardRepository({ db: tx }).rollUpDay(day);
    });
    if (wrote) rolled.push(day);
  }
  return rolled;
}
