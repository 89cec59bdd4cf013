import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { paymentsRoutes } from './payments.routes.ts';
import { registerPaymentTasks } from './tasks/index.ts';

/** Recharges: routes (and the provider's own callback routes) plus closing and reconciling orders. */
export async function registerPayments(app: AppInstance, c: Container) {
  await paymentsRoutes(app, c);
  registerPaymentTasks(app, c.payments);
}
