import type { AppInstance, Container } from '../../app/types.ts';
import { billingRoutes } from './billing.routes.ts';

export async function registerBilling(app: AppInstance, c: Container) {
  await billingRoutes(app, c);
}
