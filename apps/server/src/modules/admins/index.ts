/**
 * The public face of admins (the back office's sign-in and its administrators): what other
 * modules may import. The module's definition for the app is admins.module.ts.
 */
export { ensureFirstAdmin } from './admins.usecases.ts';
