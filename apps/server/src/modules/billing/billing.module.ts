import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { billingRoutes } from './billing.routes.ts';

export async function registerBilling(app: AppInstance, c: Container) {
  await billingRoutes(app, c);
}
