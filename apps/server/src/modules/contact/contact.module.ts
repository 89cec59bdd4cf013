import type { Container } from '../../app/types.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { contactRoutes } from './contact.routes.ts';

export async function registerContact(app: AppInstance, c: Container) {
  await contactRoutes(app, c);
}
