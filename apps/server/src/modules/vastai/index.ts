/**
 * The public face of vastai: what other modules may import (besides its tables files). The module's
 * definition for the app is vastai.module.ts.
 */
export { createVastaiRentals } from './rentals.usecases.ts';
export { vastaiErrors } from './vastai.errors.ts';
export { overseasMarketRows } from './vastai.usecases.ts';
