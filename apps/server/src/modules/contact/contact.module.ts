import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { defineModule } from '../../platform/module.ts';
import { contactRoutes } from './contact.routes.ts';

export interface ContactDeps {
  db: Db;
  now: Now;
}

/** Enquiries from the contact form, and the back office's list of them. */
export const contactModule = defineModule({
  name: 'contact',
  createDeps: (core): ContactDeps => ({ db: core.db, now: () => core.clock.now() }),
  register: (app, deps) => contactRoutes(app, deps),
});
