import { type Bill, type BillQuery, unitsToYuan } from '@gpu/shared';
import { addDays, shanghaiDayStart, shanghaiToday } from '@gpu/shared/time';
import type { Clock } from '../../../platform/clock.ts';
import type { DbOrTx } from '../../../platform/db/client.ts';
import type { AuthUser } from '../../auth/index.ts';
import { accruedAt, currentRate } from '../../instances/index.ts';
import { createLedgerRepository } from '../../ledger/index.ts';
import { createBillsRepository } from './bills.repository.ts';

/** What the bills read with (the routes hand in the instances' deps). */
export interface BillsDeps {
  db: DbOrTx;
  clock: Clock;
}

type BillRow = Awaited<ReturnType<ReturnType<typeof createBillsRepository>['page']>>['rows'][number];

export const toBill = (r: BillRow): Bill => ({
  id: r.id,
  recordNo: r.recordNo,
  instanceId: r.instanceId,
  instanceName: r.instanceName,
  billingType: r.billingType,
  kind: r.kind as Bill['kind'],
  periodStart: r.periodStart.toISOString(),
  periodEnd: r.periodEnd.toISOString(),
  amount: unitsToYuan(r.amount),
  voucherAmount: unitsToYuan(r.voucherAmount),
  hourlyPrice: r.hourlyRate === null ? null : unitsToYuan(r.hourlyRate),
  createdAt: r.createdAt.toISOString(),
});

export async function billSummary(deps: BillsDeps, user: AuthUser) {
  const now = deps.clock.now();
  const repo = createBillsRepository(deps);
  const today = shanghaiToday(now);
  // The total is the account's kept `spent`, not a sum of every line the user ever had.
  const [spend, running, account] = await Promise.all([
    repo.daySpendAndMonth(user.id, user.tenantId, {
      dayStart: shanghaiDayStart(today),
      monthStart: shanghaiDayStart(`${today.slice(0, 8)}01`),
    }),
    repo.running(user.id, user.tenantId),
    createLedgerRepository(deps).account(user.id),
  ]);
  return {
    todaySpend: unitsToYuan(spend.day),
    monthSpend: unitsToYuan(spend.month),
    totalSpend: unitsToYuan(account?.spent ?? 0),
    runningInstances: running.length,
    hourlyBurn: unitsToYuan(
      running.reduce((n, i) => n + (i.billingType === 'hourly' ? currentRate(i) : 0), 0),
    ),
    available: unitsToYuan(account?.available ?? 0),
  };
}

/** Spend per day for the last `days` Shanghai days, zero-filled, oldest first. */
export async function dailyConsumption(deps: BillsDeps, user: AuthUser, days: number) {
  const now = deps.clock.now();
  const first = addDays(shanghaiToday(now), 1 - days);
  const rows = await createBillsRepository(deps).daily(user.id, user.tenantId, shanghaiDayStart(first));
  const byDay = new Map(rows.map((r) => [r.day, r.amount]));
  return Array.from({ length: days }, (_, k) => {
    const date = addDays(first, k);
    return { date, amount: unitsToYuan(byDay.get(date) ?? 0) };
  });
}

/** Running instances with what they accrued and what was charged (the user's live monitor). */
export async function monitorInstances(deps: BillsDeps, user: AuthUser) {
  const now = deps.clock.now();
  const running = await createBillsRepository(deps).running(user.id, user.tenantId);
  return running.map((i) => ({
    id: i.id,
    name: i.name,
    billingType: i.billingType,
    hourlyPrice: unitsToYuan(currentRate(i)),
    accrued: unitsToYuan(i.billingType === 'hourly' ? accruedAt(i, now) : i.charged),
    charged: unitsToYuan(i.charged),
    runningSince: i.runningSince?.toISOString() ?? null,
    expiresAt: i.expiresAt?.toISOString() ?? null,
  }));
}

export const listBills = (deps: BillsDeps, user: AuthUser, q: BillQuery) =>
  createBillsRepository(deps).page(user.id, user.tenantId, q);
