import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { auditRoutes } from './audit.routes.ts';

export async function registerAudit(app: AppInstance, c: Container) {
  await auditRoutes(app, c);
}
