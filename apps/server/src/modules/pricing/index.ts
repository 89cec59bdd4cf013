import type { AppInstance, Container } from '../../app/types.ts';
import { pricingRoutes } from './pricing.routes.ts';

export async function registerPricing(app: AppInstance, c: Container) {
  await pricingRoutes(app, c);
}
