import type { PaymentDeps } from '../../payments.deps.ts';
import { isExpired } from '../../payments.models.ts';
import { createPaymentsRepository } from '../../payments.repository.ts';
import { expireOrder, settlePaid } from '../../payments.usecases.ts';
import { simulatedTradeNo } from './simulated-driver.ts';

/** The order behind a simulated QR code (closed first if it has expired). */
export async function simulatedOrder(deps: PaymentDeps, orderNo: string) {
  const repo = createPaymentsRepository(deps);
  const order = await repo.byOrderNo(orderNo);
  if (order?.provider !== 'simulated') return undefined;
  const now = deps.now();
  if (order.status === 'PENDING' && isExpired(order, now)) {
    await expireOrder(deps, order, now);
    return repo.byOrderNo(orderNo);
  }
  return order;
}

/** The simulated customer pays: a pending, unexpired order is credited once; others stay as they are. */
export async function paySimulatedOrder(deps: PaymentDeps, orderNo: string) {
  const order = await simulatedOrder(deps, orderNo);
  if (order?.status !== 'PENDING') return order;
  // Only from PENDING: a closed order cannot be paid on this page.
  await settlePaid(deps, orderNo, { tradeNo: simulatedTradeNo(orderNo), amount: order.amount }, ['PENDING']);
  return createPaymentsRepository(deps).byOrderNo(orderNo);
}
