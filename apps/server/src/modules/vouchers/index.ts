/**
 * The public face of vouchers: what other modules may import (besides its tables files). The module's
 * definition for the app is vouchers.module.ts.
 */

export { voucherErrors } from './vouchers.errors.ts';
export { VOUCHERS_TALLY } from './vouchers.repository.ts';
export { lockVoucher, previewDeduction, returnToVoucher, takeFromVoucher } from './vouchers.usecases.ts';
