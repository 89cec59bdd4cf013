import { defineModule } from '../../platform/module.ts';
import type { AuditDeps } from './audit.deps.ts';
import { auditRoutes } from './audit.routes.ts';

/** The back office's audit log: every admin write, who and when (written by the other modules). */
export const auditModule = defineModule({
  name: 'audit',
  createDeps: (core): AuditDeps => ({ db: core.db }),
  register: (app, deps) => auditRoutes(app, deps),
});
