/**
 * The public face of operations: what other modules may import (besides its tables files). The module's
 * definition for the app is operations.module.ts.
 */
export { operationsErrors } from './operations.errors.ts';
