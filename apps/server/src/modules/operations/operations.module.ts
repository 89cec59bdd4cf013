import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { noticesRoutes } from './notices.routes.ts';
import { operationsRoutes } from './operations.routes.ts';

/** The back office's operations: balance monitoring, user management, instance monitor, user notices. */
export async function registerOperations(app: AppInstance, c: Container) {
  await operationsRoutes(app, c);
  await noticesRoutes(app, c);
}
