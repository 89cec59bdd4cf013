import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { voucherAdminRoutes } from './admin.routes.ts';
import { vouchersRoutes } from './vouchers.routes.ts';

export async function registerVouchers(app: AppInstance, c: Container) {
  await vouchersRoutes(app, c);
  await voucherAdminRoutes(app, c);
}
