import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { systemRoutes } from './system.routes.ts';
import { registerSystemTasks } from './system.tasks.ts';

/** Health and first-start status; the embedded database's vacuum. */
export async function registerSystem(app: AppInstance, c: Container) {
  await systemRoutes(app, c);
  registerSystemTasks(app, c);
}
