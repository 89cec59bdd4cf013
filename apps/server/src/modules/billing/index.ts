/**
 * The public face of billing (balances on screen, admins' adjustments, bills): nothing other
 * modules need. The module's definition for the app is billing.module.ts.
 */

export { billsErrors } from './bills/bills.errors.ts';
export { BILL_LINES_TALLY } from './bills/bills.repository.ts';
