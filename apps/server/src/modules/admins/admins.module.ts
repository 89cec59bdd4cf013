import { defineModule } from '../../platform/module.ts';
import type { AuthDeps } from '../auth/index.ts';
import type { AdminsDeps } from './admins.deps.ts';
import { adminAuthRoutes } from './admins.routes.ts';

/**
 * Administrators: the back office's sign-in and sign-out (audited). Above auth (identities,
 * tokens, passwords) and audit, so neither of those needs the other.
 */
export const adminsModule = defineModule({
  name: 'admins',
  createDeps: (_core, needs: { auth: AuthDeps }): AdminsDeps => needs.auth,
  register: (app, deps) => adminAuthRoutes(app, deps),
});
