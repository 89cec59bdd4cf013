import type { AppInstance, Container } from '../../app/types.ts';
import { discountsRoutes } from './discounts.routes.ts';

export async function registerDiscounts(app: AppInstance, c: Container) {
  await discountsRoutes(app, c);
}
