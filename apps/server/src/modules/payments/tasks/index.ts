import type { AppInstance } from '../../../platform/http/types.ts';
import type { PaymentDeps } from '../payments.deps.ts';
import { CLOSE_EXPIRED_ORDERS_TASK, closeExpiredRechargeOrders } from './close-expired-orders.task.ts';
import {
  RECONCILE_PENDING_ORDERS_TASK,
  reconcilePendingRechargeOrders,
} from './reconcile-pending-orders.task.ts';

export function registerPaymentTasks(app: AppInstance, deps: PaymentDeps) {
  app.tasks.register({
    name: CLOSE_EXPIRED_ORDERS_TASK,
    intervalMs: 30_000,
    run: () => closeExpiredRechargeOrders(deps),
  });
  app.tasks.register({
    name: RECONCILE_PENDING_ORDERS_TASK,
    intervalMs: 30_000,
    run: () => reconcilePendingRechargeOrders(deps),
  });
}
