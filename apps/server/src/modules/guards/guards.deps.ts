import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { InstanceDeps } from '../instances/index.ts';

/** What the guards need: the database and clock, and the instances' deps for their power off. */
export interface GuardsDeps {
  db: Db;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  instances: InstanceDeps;
}
