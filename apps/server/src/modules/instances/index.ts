/**
 * The public face of instances: what other modules may import (besides its tables files). The module's
 * definition for the app is instances.module.ts.
 */
export type { InstanceDeps } from './instances.deps.ts';
