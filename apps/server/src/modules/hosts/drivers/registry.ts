import { setTimeout as sleep } from 'node:timers/promises';
import type { Now } from '../../../platform/clock.ts';
import type { Db } from '../../../platform/db/client.ts';
import { type HostNetworks, NO_HOST_NETWORKS } from '../../../platform/host-networks.ts';
import type { SecretBox } from '../../../platform/secret-box.ts';
import { createDockerDriver, type DockerDriverDeps } from './docker/docker-driver.ts';
import { DriverNotSupportedError } from './driver-errors.ts';
import type { HostDriver, HostRecord } from './host-driver.ts';
import { createSimulatedDriver } from './simulated/simulated-driver.ts';
import { VASTAI_DEFAULT_URL } from './vastai/vastai-api.ts';
import { createVastaiDriver, type VastaiDriverDeps } from './vastai/vastai-driver.ts';

export interface HostDriverRegistry {
  /** The driver of this host row (`simulated`, `docker`, `vastai`: the vast.ai account). */
  forHost(host: HostRecord): HostDriver;
}

export interface RegistryDeps {
  db: Db;
  now?: Now;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  docker?: DockerDriverDeps;
  /** Opens the secrets sealed in host settings when a driver connects. */
  box?: SecretBox;
  /** HOST_NETWORKS; absent means no engine anywhere (the simulated hosts need none). */
  hostNetworks?: HostNetworks;
  /** VASTAI_API_KEY / VASTAI_API_URL; no key means overseas calls fail as not configured. */
  vastai?: Partial<VastaiDriverDeps>;
}

/** Chooses the driver per host row (DESIGN §2: one registry per external dependency). */
export function createHostDriverRegistry(deps: RegistryDeps): HostDriverRegistry {
  const simulated = {
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    random: deps.random ?? Math.random,
    sleep: deps.sleep ?? ((ms: number) => sleep(ms)),
  };
  return {
    forHost(host) {
      switch (host.driver) {
        case 'simulated':
          return createSimulatedDriver(host, simulated);
        case 'docker':
          return createDockerDriver(host, {
            box: deps.box,
            networks: deps.hostNetworks ?? NO_HOST_NETWORKS,
            ...deps.docker,
          });
        case 'vastai':
          return createVastaiDriver(host, { apiUrl: VASTAI_DEFAULT_URL, ...deps.vastai });
        default:
          throw new DriverNotSupportedError(host.driver);
      }
    },
  };
}
