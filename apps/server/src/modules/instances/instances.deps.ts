import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { RequestLoad } from '../../platform/request-load.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import type { DiscountService } from '../discounts/index.ts';
import type { HostDriverRegistry, HostsDeps } from '../hosts/index.ts';
import type { MarketCatalog } from '../market/index.ts';

/** What the instance usecases need; tests hand in a fixed clock or a failing driver registry. */
export interface InstanceDeps {
  db: Db;
  clock: Clock;
  hostDrivers: HostDriverRegistry;
  market: Pick<MarketCatalog, 'invalidate'>;
  discounts: Pick<DiscountService, 'rulesFor'>;
  box: SecretBox;
  retentionDays: number;
  /** How long an instance job's claim lasts (INSTANCE_PROVISION_LEASE_S). */
  provisionLeaseMs: number;
  /** IMAGE_REGISTRY: users' saved images are pushed there and pulled by other hosts (images/). */
  imageRegistry?: string | null;
  /** Starts the job of a committed create or power action in this process (jobs.usecases.ts). */
  jobs: { kick(instanceId: number): void };
  /** The app's logger: background tasks report what failed for one instance and carried on. */
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/** In-process kicks of saved-image deletions after commit (images/delete.usecases.ts). */
export interface ImageDeletes {
  kick(): void;
  drain(): Promise<void>;
}

/** In-process instance jobs after commit (jobs.usecases.ts); `drain` waits for those in flight. */
export interface ProvisionJobs {
  kick(instanceId: number): void;
  drain(): Promise<void>;
}

/** The module's deps: the usecases' plus the job runner and the hosts' deps (Docker-path routes). */
export interface InstancesModuleDeps extends InstanceDeps {
  jobs: ProvisionJobs;
  /** Deletions of users' saved images after commit (images/delete.usecases.ts). */
  imageDeletes: ImageDeletes;
  hosts: HostsDeps;
  /** Requests in flight: a long-poll waits uncounted (wait.routes.ts). */
  requests: RequestLoad;
}

/** Who asked: the owner, an admin or a task. Recorded on every event. */
export type Actor = { kind: 'user'; id: number } | { kind: 'admin'; id: number } | { kind: 'system' };
export const actorLabel = (a: Actor) => (a.kind === 'system' ? 'system' : `${a.kind}:${a.id}`);
