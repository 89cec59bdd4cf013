import {
  type AdminActor,
  BALANCE_WARNING_HOURS_DEFAULT,
  type BalanceCheckResult,
  type BalanceHealth,
  type BalanceStats,
  type BalanceWarning,
  type BalanceWarningsQuery,
  hoursLeft,
  type Page,
  unitsToYuan,
} from '@gpu/shared';
import { shanghaiDayStart, shanghaiToday } from '@gpu/shared/time';
import type { AggregateCache } from '../../platform/aggregate-cache.ts';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import { findUnbalancedAccounts } from '../ledger/index.ts';
import { createBalanceRepository } from './balance.repository.ts';

interface Deps {
  db: Db;
  now: Now;
}

/**
 * Users whose balance (net of uncharged accrual) will not cover their running instances for
 * `hours`. The whole list is one aggregate over every running instance: it is computed once per
 * short while per `hours` (deps.stats) and paged from memory, with the time it was computed.
 */
export async function balanceWarnings(
  deps: Deps & { stats: AggregateCache },
  q: BalanceWarningsQuery,
): Promise<Page<BalanceWarning> & { computedAt: string }> {
  const all = await deps.stats.get(`balance-warnings:${q.hours}`, () =>
    createBalanceRepository(deps).balanceWarnings(deps.now(), q.hours),
  );
  const rows = all.value.slice((q.page - 1) * q.size, q.page * q.size);
  return {
    computedAt: all.computedAt.toISOString(),
    list: rows.map((r) => {
      const left = r.available - r.pending;
      return {
        userId: r.userId,
        phone: r.phone,
        username: r.username,
        tenantName: r.tenantName,
        available: unitsToYuan(r.available),
        pending: unitsToYuan(r.pending),
        hourlyCost: unitsToYuan(r.rate),
        runningInstances: r.runningInstances,
        hoursLeft: hoursLeft(left, r.rate) ?? 0,
      };
    }),
    total: all.value.length,
    page: q.page,
    size: q.size,
  };
}

export async function balanceStats(deps: Deps): Promise<BalanceStats> {
  const now = deps.now();
  const t = await createBalanceRepository(deps).balanceTotals(
    now,
    BALANCE_WARNING_HOURS_DEFAULT,
    shanghaiDayStart(shanghaiToday(now)),
  );
  return {
    accounts: t.accounts,
    totalAvailable: unitsToYuan(t.available),
    totalFrozen: unitsToYuan(t.frozen),
    arrearsUsers: t.arrearsUsers,
    arrearsAmount: unitsToYuan(t.arrearsAmount),
    warningUsers: t.warningUsers,
    runningHourlyInstances: t.running,
    hourlyBurn: unitsToYuan(t.burn),
    rechargeToday: unitsToYuan(t.rechargeToday),
  };
}

/** Σ balances against Σ ledger, overall and per account (ledger.ts keeps them equal; this proves it). */
export async function balanceHealth(deps: Deps): Promise<BalanceHealth> {
  const repo = createBalanceRepository(deps);
  const [totals, unbalanced] = await Promise.all([repo.ledgerTotals(), findUnbalancedAccounts(deps.db)]);
  const phones = await repo.phonesOf(unbalanced.map((u) => u.userId));
  return {
    healthy:
      unbalanced.length === 0 &&
      totals.available === totals.ledgerAvailable &&
      totals.frozen === totals.ledgerFrozen,
    checkedAt: deps.now().toISOString(),
    accounts: totals.accounts,
    totalAvailable: unitsToYuan(totals.available),
    ledgerAvailable: unitsToYuan(totals.ledgerAvailable),
    totalFrozen: unitsToYuan(totals.frozen),
    ledgerFrozen: unitsToYuan(totals.ledgerFrozen),
    mismatches: unbalanced.map((u) => ({
      userId: u.userId,
      phone: phones.get(u.userId) ?? null,
      available: unitsToYuan(u.available),
      ledgerAvailable: unitsToYuan(u.ledgerAvailable),
      frozen: unitsToYuan(u.frozen),
      ledgerFrozen: unitsToYuan(u.ledgerFrozen),
    })),
  };
}

/** The manual check: health and warnings now, and an audit row saying who ran it and what it found. */
export async function runBalanceCheck(deps: Deps, actor: AdminActor): Promise<BalanceCheckResult> {
  const health = await balanceHealth(deps);
  const { warningUsers } = await balanceStats(deps);
  await deps.db.transaction((tx) =>
    recordAudit(tx, actor, 'balance.check', 'balance', {
      healthy: health.healthy,
      mismatches: health.mismatches.map((m) => m.userId),
      warningUsers,
    }),
  );
  return { ...health, warningUsers };
}
