import { defineModule } from '../../platform/module.ts';

/**
 * Accounts and the ledger: every balance movement as an entry (DESIGN §5). No routes of its own;
 * billing shows balances, and instances, payments, blockchain and operations post entries.
 */
export const ledgerModule = defineModule({
  name: 'ledger',
  createDeps: () => ({}),
  register: () => {},
});
