import type { AuthLookups } from './auth.types.ts';
import type { AuthDeps, OpenAccount } from './auth.usecases.ts';

export interface AuthModuleDeps extends AuthDeps {
  /** Whether a subject may still act, read on every signed-in request. */
  lookups: AuthLookups;
  /** Outside production a console provider's code is shown on screen. */
  isProduction: boolean;
  /** Opens a new user's balance account (billing's) in the registration's transaction. */
  openAccount: OpenAccount;
}
