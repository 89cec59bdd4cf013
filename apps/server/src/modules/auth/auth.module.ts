import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { authRoutes } from './auth.routes.ts';
import { registerAuthTasks } from './auth.tasks.ts';

/** Users' sign-in and account security, and the cleanup of rate-limit counters. */
export async function registerAuthModule(app: AppInstance, c: Container) {
  await authRoutes(app, c);
  registerAuthTasks(app, c);
}
