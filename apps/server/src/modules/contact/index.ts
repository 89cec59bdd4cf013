/**
 * The public face of contact: what other modules may import (besides its tables files). The module's
 * definition for the app is contact.module.ts.
 */
export { contactErrors } from './contact.errors.ts';
