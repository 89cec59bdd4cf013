import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { hostsRoutes } from './hosts.routes.ts';

/** Admin host management. The Docker-path routes need instances, so the instances module adds them. */
export async function registerHosts(app: AppInstance, c: Container) {
  await hostsRoutes(app, c);
}
