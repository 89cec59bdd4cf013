import { createAggregateCache } from '../../platform/aggregate-cache.ts';
import type { Tx } from '../../platform/db/client.ts';
import type { HostNetworks } from '../../platform/host-networks.ts';
import { defineModule } from '../../platform/module.ts';
import type { HostDriverRegistry } from './drivers/registry.ts';
import { hostsRoutes } from './hosts.routes.ts';
import type { HostsDeps } from './hosts.usecases.ts';

/**
 * Hosts: the back office's host management, GPUs, ports and SKUs, and the driver registry. The
 * Docker-path routes need instances, so the instances module adds them with these deps.
 */
export const hostsModule = defineModule({
  name: 'hosts',
  createDeps: (
    core,
    needs: {
      hostDrivers: HostDriverRegistry;
      hostNetworks: HostNetworks;
      hasHistory: (tx: Tx, hostId: number) => Promise<boolean>;
      changed: () => void;
      statsTtlMs: number;
    },
  ): HostsDeps => {
    const { statsTtlMs, ...rest } = needs;
    const stats = createAggregateCache({ ttlMs: statsTtlMs, now: () => core.clock.now() });
    return { db: core.db, clock: core.clock, box: core.box, log: core.log, stats, ...rest };
  },
  register: (app, deps) => hostsRoutes(app, deps),
});
