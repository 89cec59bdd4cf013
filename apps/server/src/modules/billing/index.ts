/**
 * The public face of billing: what other modules may import (besides its tables files). The module's
 * definition for the app is billing.module.ts.
 */
export { createBillingRepository } from './billing.repository.ts';
