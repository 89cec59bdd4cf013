import type { AppInstance, Container } from '../../app/types.ts';
import { billsRoutes } from '../billing/bills/bills.routes.ts';
import { instancesRoutes } from './instances.routes.ts';
import { registerInstanceTasks } from './tasks/index.ts';

/** Instances (routes incl. the Docker-path ones), their bills and their scheduled jobs. */
export async function registerInstances(app: AppInstance, c: Container) {
  await instancesRoutes(app, c);
  await billsRoutes(app, c);
  registerInstanceTasks(app, c.instances);
  // Provisioning jobs in flight finish before the database closes.
  app.addHook('onClose', () => c.instances.jobs.drain());
}
