/**
 * The public face of payments: what other modules may import (besides its tables files). The module's
 * definition for the app is payments.module.ts.
 */
export type { PaymentDriver } from './drivers/payment-driver.ts';
export { paymentErrors } from './payments.errors.ts';
export { RECHARGE_ORDERS_TALLY } from './payments.repository.ts';
