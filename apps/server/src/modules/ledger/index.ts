/**
 * The public face of ledger: balances' accounts and the entries that move them. What other modules
 * may import (besides its tables file). The module's definition for the app is ledger.module.ts.
 */
export { billingErrors } from './ledger.errors.ts';
export { createLedgerRepository } from './ledger.repository.ts';
export { findUnbalancedAccounts, postLedgerEntry } from './ledger.ts';
