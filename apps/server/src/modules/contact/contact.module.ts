import { defineModule } from '../../platform/module.ts';
import type { ContactDeps } from './contact.deps.ts';
import { contactRoutes } from './contact.routes.ts';

/** Enquiries from the contact form, and the back office's list of them. */
export const contactModule = defineModule({
  name: 'contact',
  createDeps: (core): ContactDeps => ({ db: core.db, now: () => core.clock.now() }),
  register: (app, deps) => contactRoutes(app, deps),
});
