/**
 * The public face of blockchain: what other modules may import (besides its tables files). The module's
 * definition for the app is blockchain.module.ts.
 */
export { blockchainErrors } from './blockchain.errors.ts';
