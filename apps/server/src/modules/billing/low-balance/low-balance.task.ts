import { formatMoney, hoursLeft, unitsToYuan } from '@gpu/shared/money';
import type { Task } from '../../../platform/tasks.ts';
import { currentRate } from '../../instances/index.ts';
import { createNoticesRepository, LOW_BALANCE_DEFAULT_UNITS } from '../../notices/index.ts';
import type { BillingDeps } from '../billing.deps.ts';
import { createLowBalanceRepository } from './low-balance.repository.ts';

const BATCH = 500;

/** The notice's words: the balance, and how long it lasts at the current spend (hoursLeft). */
export function lowBalanceText(availableUnits: number, ratePerHourUnits: number) {
  const hours = hoursLeft(unitsToYuan(availableUnits), unitsToYuan(ratePerHourUnits));
  const runway =
    hours === null
      ? '当前没有按量计费实例在运行。'
      : hours <= 0
        ? '按量计费实例将因欠费自动关机。'
        : `按当前消费约可使用 ${hours} 小时。`;
  return {
    body: `您的可用余额为 ${formatMoney(unitsToYuan(availableUnits))}，已低于提醒阈值，${runway}请及时充值。`,
    hours,
  };
}

/**
 * Low balance (issue 31): an account under its owner's threshold is told once per dip; when the
 * balance is back at the threshold the next dip is told again. The dip is marked in the notice's
 * transaction (a conditional upsert), so replicas running this at once tell it once.
 */
export async function runLowBalance(deps: BillingDeps) {
  const repo = createLowBalanceRepository(deps);
  const rearmed = await repo.rearm(LOW_BALANCE_DEFAULT_UNITS);
  const dipped = await repo.dipped(LOW_BALANCE_DEFAULT_UNITS, BATCH);
  const rates = new Map<number, number>();
  for (const i of await repo.accruing(dipped.map((d) => d.userId))) {
    rates.set(i.userId, (rates.get(i.userId) ?? 0) + currentRate(i));
  }
  let told = 0;
  for (const d of dipped) {
    const rate = rates.get(d.userId) ?? 0;
    const { body, hours } = lowBalanceText(d.available, rate);
    const wrote = await deps.db.transaction(async (tx) => {
      const dip = await createLowBalanceRepository({ db: tx }).markDipped(d.userId);
      if (dip === null) return null;
      return createNoticesRepository({ db: tx }).notify({
        userId: d.userId,
        event: 'low_balance',
        title: '余额不足提醒',
        body,
        dedupeKey: `low_balance:${dip}`,
        params: { available: unitsToYuan(d.available), hourlyBurn: unitsToYuan(rate), hoursLeft: hours },
      });
    });
    if (wrote !== null) told++;
  }
  return { told, rearmed };
}

export const LOW_BALANCE_TASK = 'billing.low-balance';
export const lowBalanceTask = (deps: BillingDeps): Task => ({
  name: LOW_BALANCE_TASK,
  intervalMs: 60_000,
  run: () => runLowBalance(deps),
});
