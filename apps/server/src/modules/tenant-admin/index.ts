/**
 * The public face of tenant-admin: nothing other modules need yet. The module's definition for
 * the app is tenant-admin.module.ts.
 */

export { tenantAdminErrors } from './tenant-admin.errors.ts';
