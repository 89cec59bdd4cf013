import { defineModule } from '../../platform/module.ts';
import type { AuthDeps } from '../auth/index.ts';
import { registerAdminAccess } from './admin-access.plugin.ts';
import { adminAccountRoutes } from './admin-accounts.routes.ts';
import type { AdminsDeps } from './admins.deps.ts';
import { adminAuthRoutes } from './admins.routes.ts';
import { ownAccountRoutes } from './own-account.routes.ts';

/**
 * Administrators: the back office's sign-in and sign-out (audited), and who may use which admin
 * route (roles, tenant operators). Above auth (identities, tokens, passwords) and audit, so
 * neither of those needs the other.
 */
export const adminsModule = defineModule({
  name: 'admins',
  createDeps: (core, needs: { auth: AuthDeps & { isProduction: boolean } }): AdminsDeps => ({
    ...needs.auth,
    box: core.box,
  }),
  hooks: (app) => registerAdminAccess(app),
  register: async (app, deps) => {
    await adminAuthRoutes(app, deps);
    await ownAccountRoutes(app, deps);
    await adminAccountRoutes(app, deps);
  },
});
