import type { AppInstance, Container } from '../../app/types.ts';
import { contactRoutes } from './contact.routes.ts';

export async function registerContact(app: AppInstance, c: Container) {
  await contactRoutes(app, c);
}
