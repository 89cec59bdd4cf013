import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { discountAdminRoutes } from './admin.routes.ts';
import { discountsRoutes } from './discounts.routes.ts';

export async function registerDiscounts(app: AppInstance, c: Container) {
  await discountsRoutes(app, c);
  await discountAdminRoutes(app, c);
}
