import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminAuthRoutes } from './admins.routes.ts';

/**
 * Administrators: the back office's sign-in and sign-out (audited). Above auth (identities,
 * tokens, passwords) and audit, so neither of those needs the other.
 */
export async function registerAdmins(app: AppInstance, c: Container) {
  await adminAuthRoutes(app, c);
}
