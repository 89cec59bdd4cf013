import type { Task } from '../../../platform/tasks.ts';
import type { PaymentDeps } from '../payments.deps.ts';
import { RECONCILE_MIN_AGE_MS } from '../payments.models.ts';
import { createPaymentsRepository } from '../payments.repository.ts';
import { refreshFromProvider } from '../payments.usecases.ts';

export const RECONCILE_PENDING_ORDERS_TASK = 'payments.reconcile-pending-orders';

/**
 * Asks the provider about pending orders older than a few seconds, for notifications that were
 * lost or refused: a payment found this way is credited like a notified one (once).
 */
export async function reconcilePendingRechargeOrders(deps: PaymentDeps, limit = 100) {
  const now = deps.now();
  const orders = await createPaymentsRepository(deps).pendingOf(
    deps.payments.kind,
    new Date(now.getTime() - RECONCILE_MIN_AGE_MS),
    now,
    limit,
  );
  for (const order of orders) await refreshFromProvider(deps, order, now);
  return { checked: orders.length };
}

export const reconcilePendingOrdersTask = (deps: PaymentDeps): Task => ({
  name: RECONCILE_PENDING_ORDERS_TASK,
  intervalMs: 30_000,
  run: () => reconcilePendingRechargeOrders(deps),
});
