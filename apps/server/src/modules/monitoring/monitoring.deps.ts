import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { HostDriverRegistry } from '../hosts/index.ts';

/** What monitoring's usecases and tasks need; tests hand in a fixed clock or their own drivers. */
export interface MonitoringDeps {
  db: Db;
  clock: Clock;
  hostDrivers: HostDriverRegistry;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}
