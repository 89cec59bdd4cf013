import type { Task } from '../../../platform/tasks.ts';
import type { PaymentDeps } from '../payments.deps.ts';
import { createPaymentsRepository } from '../payments.repository.ts';
import { expireOrder } from '../payments.usecases.ts';

export const CLOSE_EXPIRED_ORDERS_TASK = 'payments.close-expired-orders';

/**
 * Closes pending orders past their 600 s (asking the provider first, then trade.close). Safe on
 * every replica at once: provider calls are claimed per order, the close is a conditional update.
 */
export async function closeExpiredRechargeOrders(deps: PaymentDeps, limit = 100) {
  const now = deps.now();
  const orders = await createPaymentsRepository(deps).expiredPending(now, limit);
  for (const order of orders) {
    try {
      await expireOrder(deps, order, now);
    } catch (err) {
      deps.log.error({ err, orderNo: order.orderNo }, 'could not close an expired recharge order');
    }
  }
  return { expired: orders.length };
}

export const closeExpiredOrdersTask = (deps: PaymentDeps): Task => ({
  name: CLOSE_EXPIRED_ORDERS_TASK,
  intervalMs: 30_000,
  run: () => closeExpiredRechargeOrders(deps),
});
