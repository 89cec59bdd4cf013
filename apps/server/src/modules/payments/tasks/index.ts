import type { AppInstance } from '../../../app/server.ts';
import { paymentDeps } from '../payments.deps.ts';
import { CLOSE_EXPIRED_ORDERS_TASK, closeExpiredRechargeOrders } from './close-expired-orders.task.ts';
import {
  RECONCILE_PENDING_ORDERS_TASK,
  reconcilePendingRechargeOrders,
} from './reconcile-pending-orders.task.ts';

export function registerPaymentTasks(app: AppInstance) {
  app.tasks.register({
    name: CLOSE_EXPIRED_ORDERS_TASK,
    intervalMs: 30_000,
    run: () => closeExpiredRechargeOrders(paymentDeps(app)),
  });
  app.tasks.register({
    name: RECONCILE_PENDING_ORDERS_TASK,
    intervalMs: 30_000,
    run: () => reconcilePendingRechargeOrders(paymentDeps(app)),
  });
}
