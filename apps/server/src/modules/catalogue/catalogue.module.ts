import { defineModule } from '../../platform/module.ts';
import { catalogueRoutes } from './catalogue.routes.ts';
import type { CatalogueDeps } from './catalogue.usecases.ts';

/** The admin catalogue: regions, GPU types, images and GPU SKUs. A change drops the market's answers. */
export const catalogueModule = defineModule({
  name: 'catalogue',
  createDeps: (core, needs: { changed: () => void }): CatalogueDeps => ({
    db: core.db,
    now: () => core.clock.now(),
    changed: needs.changed,
  }),
  register: (app, deps) => catalogueRoutes(app, deps),
});
