import { systemClock } from '../platform/clock.ts';
import type { Database } from '../platform/db/client.ts';
import type { Core } from '../platform/module.ts';
import { createRequestLoad } from '../platform/request-load.ts';
import { secretBoxOf } from '../platform/secret-box.ts';
import { createTaskRunner } from '../platform/tasks.ts';
import type { Config } from './config.ts';
import { type BuiltModule, createModules, type Modules } from './modules.ts';
import type { ContainerOverrides } from './types.ts';

/** A logger that drops everything, for a container built without an app (scripts, benches). */
const silentLog = {
  level: 'silent',
  fatal: () => {},
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
  silent: () => {},
  child: () => silentLog,
} as unknown as Core['log'];

export interface AppDeps {
  core: Core;
  config: Config;
  /** Each module's deps, by module (what tests reach services through). */
  modules: Modules;
  /** The modules in registration order (app/modules.ts). */
  list: BuiltModule[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The container the app was built from (tests reach services through it). */
    deps: AppDeps;
  }
}

/**
 * Builds the core (database, clock, log, secret box, request load, task runner) and every
 * module's deps once; buildServer registers the modules. Tests build it with test settings and
 * replace the outside world (clock, SMS, payments, host drivers) through `overrides`.
 */
export function createContainer(
  config: Config,
  database: Database,
  overrides: ContainerOverrides = {},
): AppDeps {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? silentLog;
  const db = database.db;
  const core: Core = {
    database,
    db,
    clock,
    log,
    // APP_SECRET seals; APP_SECRET_PREVIOUS still opens what older secrets sealed.
    box: secretBoxOf(config),
    requests: createRequestLoad(),
    tasks: createTaskRunner(log),
  };
  const { modules, list } = createModules(core, config, overrides);
  return { core, config, modules, list };
}
