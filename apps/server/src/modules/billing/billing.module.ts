import { tallyTask } from '../../platform/db/tallies.ts';
import { defineModule } from '../../platform/module.ts';
import type { BillingDeps } from './billing.deps.ts';
import { billingRoutes } from './billing.routes.ts';
import { BILL_LINES_TALLY } from './bills/bills.repository.ts';
import { billsRoutes } from './bills/bills.routes.ts';
import { lowBalanceTask } from './low-balance/low-balance.task.ts';

/** Balances (the customer's, and admins' adjustments) and bills with their exports. */
export const billingModule = defineModule({
  name: 'billing',
  createDeps: (core): BillingDeps => ({ db: core.db, now: () => core.clock.now(), clock: core.clock }),
  register: async (app, deps) => {
    await billingRoutes(app, deps);
    await billsRoutes(app, deps);
    app.tasks.register(lowBalanceTask(deps));
    app.tasks.register(tallyTask(deps.db, BILL_LINES_TALLY));
  },
});
