import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { pricingRoutes } from './pricing.routes.ts';

export async function registerPricing(app: AppInstance, c: Container) {
  await pricingRoutes(app, c);
}
