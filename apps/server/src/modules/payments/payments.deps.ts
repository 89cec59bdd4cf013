import type { AppInstance } from '../../app/server.ts';
import type { PaymentDeps } from './payments.usecases.ts';

/** What the payment usecases take, from the app. */
export const paymentDeps = (app: AppInstance): PaymentDeps => ({
  db: app.deps.db,
  now: () => app.deps.clock.now(),
  payments: app.deps.payments,
  log: app.log,
});
