/**
 * The public face of hosts: what other modules may import (besides its tables files). The module's
 * definition for the app is hosts.module.ts.
 */
export type { HostDriverRegistry } from './drivers/registry.ts';
