import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { instancesRoutes } from './instances.routes.ts';
import { registerInstanceTasks } from './tasks/index.ts';

/** Instances (routes incl. the Docker-path ones) and their scheduled jobs. */
export async function registerInstances(app: AppInstance, c: Container) {
  await instancesRoutes(app, c);
  registerInstanceTasks(app, c.instances);
  // Provisioning jobs in flight finish before the database closes.
  app.addHook('onClose', () => c.instances.jobs.drain());
}
