import type { Clock } from './clock.ts';
import type { Database, Db } from './db/client.ts';
import type { AppInstance, Logger } from './http/types.ts';
import type { RequestLoad } from './request-load.ts';
import type { SecretBox } from './secret-box.ts';
import type { TaskRunner } from './tasks.ts';

/** What every module may build its deps from: the foundations, no feature. */
export interface Core {
  database: Database;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Seals stored secrets (APP_SECRET; APP_SECRET_PREVIOUS still opens). */
  box: SecretBox;
  /** Requests in flight in this process (background jobs yield to them). */
  requests: RequestLoad;
  /** Where modules register their scheduled tasks (main.ts starts them when TASKS=on). */
  tasks: TaskRunner;
}

/**
 * A feature as the app sees it. `createDeps` builds the module's own dependencies from the core
 * and what it `needs` (its settings and the public services of modules below it, handed in by
 * app/modules.ts); `hooks` adds what every request goes through (authentication, the tenant)
 * before any module's routes; `register` adds its routes and scheduled tasks.
 */
export interface ModuleDefinition<Deps, Needs> {
  name: string;
  createDeps(core: Core, needs: Needs): Deps;
  hooks?(app: AppInstance, deps: Deps): void | Promise<void>;
  register(app: AppInstance, deps: Deps): void | Promise<void>;
}

export const defineModule = <Deps, Needs = Record<never, never>>(definition: ModuleDefinition<Deps, Needs>) =>
  definition;
