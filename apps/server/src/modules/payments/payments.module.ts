import { tallyTask } from '../../platform/db/tallies.ts';
import { defineModule } from '../../platform/module.ts';
import type { PaymentDriver } from './drivers/payment-driver.ts';
import { createPaymentDriver, type PaymentSettings } from './drivers/registry.ts';
import type { PaymentDeps } from './payments.deps.ts';
import { RECHARGE_ORDERS_TALLY } from './payments.repository.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { closeExpiredOrdersTask } from './tasks/close-expired-orders.task.ts';
import { reconcilePendingOrdersTask } from './tasks/reconcile-pending-orders.task.ts';

/** Recharges: routes (and the provider's own callback routes) plus closing and reconciling orders. */
export const paymentsModule = defineModule({
  name: 'payments',
  createDeps: (core, needs: { settings: PaymentSettings; driver?: PaymentDriver }): PaymentDeps => ({
    db: core.db,
    now: () => core.clock.now(),
    payments: needs.driver ?? createPaymentDriver(needs.settings, { db: core.db }),
    log: core.log,
  }),
  register: async (app, deps) => {
    await paymentsRoutes(app, deps);
    app.tasks.register(closeExpiredOrdersTask(deps));
    app.tasks.register(reconcilePendingOrdersTask(deps));
    app.tasks.register(tallyTask(deps.db, RECHARGE_ORDERS_TALLY));
  },
});
