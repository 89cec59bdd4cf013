/**
 * The public face of billing: what other modules may import (besides its tables files). The module's
 * definition for the app is billing.module.ts.
 */

export { billingErrors } from './billing.errors.ts';
export { createBillingRepository } from './billing.repository.ts';
export { findUnbalancedAccounts, postLedgerEntry } from './ledger.ts';
