import { tallyTask } from '../../platform/db/tallies.ts';
import { defineModule } from '../../platform/module.ts';
import { voucherAdminRoutes } from './admin.routes.ts';
import { voucherNoticesTask } from './voucher-notices.task.ts';
import { compactVoucherDayTotalsTask } from './voucher-stats.task.ts';
import type { VouchersDeps } from './vouchers.deps.ts';
import { VOUCHERS_TALLY } from './vouchers.repository.ts';
import { vouchersRoutes } from './vouchers.routes.ts';

/** Vouchers: the customer's wallet, and the back office's configs and batch distribution. */
export const vouchersModule = defineModule({
  name: 'vouchers',
  createDeps: (core): VouchersDeps => ({ db: core.db, now: () => core.clock.now() }),
  register: async (app, deps) => {
    await vouchersRoutes(app, deps);
    await voucherAdminRoutes(app, deps);
    app.tasks.register(voucherNoticesTask(deps));
    app.tasks.register(tallyTask(deps.db, VOUCHERS_TALLY));
    app.tasks.register(compactVoucherDayTotalsTask(deps.db));
  },
});
