/**
 * The public face of audit: what other modules may import (besides its tables files). The module's
 * definition for the app is audit.module.ts.
 */
export { createAuditRepository } from './audit.repository.ts';
export { recordAudit } from './audit.usecases.ts';
