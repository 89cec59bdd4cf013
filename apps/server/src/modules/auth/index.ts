/**
 * The public face of auth: what other modules may import (besides its tables files). The module's
 * definition for the app is auth.module.ts.
 */

export { ensureFirstAdmin } from './admins.usecases.ts';
export type { AuthAdmin, AuthLookups, AuthUser } from './auth.types.ts';
export { countHit } from './rate-limits.repository.ts';
