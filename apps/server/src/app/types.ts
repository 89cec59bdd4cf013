import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from '../modules/auth/tokens.ts';
import type { DiscountService } from '../modules/discounts/discounts.usecases.ts';
import type { HostDriverRegistry } from '../modules/hosts/drivers/registry.ts';
import type { VastClient } from '../modules/hosts/drivers/vastai/vastai-api.ts';
import type { InstanceDeps, ProvisionJobs } from '../modules/instances/instances.deps.ts';
import type { MarketReadModel } from '../modules/market/market.read-model.ts';
import type { MarketCatalog } from '../modules/market/market.usecases.ts';
import type { PaymentDriver } from '../modules/payments/drivers/payment-driver.ts';
import type { PaymentDeps } from '../modules/payments/payments.deps.ts';
import type { SmsDriver } from '../modules/sms/drivers/sms-driver.ts';
import type { TenantService } from '../modules/tenants/tenants.usecases.ts';
import type { VastaiDeps } from '../modules/vastai/vastai.deps.ts';
import type { Clock, Now } from '../platform/clock.ts';
import type { Database, Db } from '../platform/db/client.ts';
import type { HostNetworks } from '../platform/host-networks.ts';
import type { RequestLoad } from '../platform/request-load.ts';
import type { SecretBox } from '../platform/secret-box.ts';
import type { Config } from './config.ts';

/**
 * The types every layer shares. A leaf: it imports only types, and nothing here imports
 * app/server.ts or app/container.ts, so no module can close an import cycle through them.
 */

export type { AuthAdmin, AuthUser } from '../modules/auth/auth.types.ts';
export type { AppInstance } from '../platform/http/types.ts';

/**
 * The container's older shape: what hosts, billing, instances and vastai (not yet module
 * definitions) and the tests read. Built from the modules' deps (app/container.ts).
 */
export interface Container {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The outside world, one registry per kind (tests replace them). */
  drivers: { host: HostDriverRegistry; payment: PaymentDriver; sms: SmsDriver };
  services: {
    tenants: TenantService;
    tokens: TokenService;
    discounts: DiscountService;
    market: MarketReadModel;
  };
  /** Requests in flight in this process (server.ts counts them; instance jobs yield to them). */
  requests: RequestLoad;
  /** Billing, discounts, idempotency and other usecases that need only the database and the time. */
  basic: { db: Db; now: Now };
  hosts: {
    db: Db;
    clock: Clock;
    hostDrivers: HostDriverRegistry;
    market: MarketCatalog;
    box: SecretBox;
    hostNetworks: HostNetworks;
    log: FastifyBaseLogger;
  };
  instances: InstanceDeps & { jobs: ProvisionJobs };
  /** Overseas GPUs (vast.ai): the instances' deps plus vast.ai's client (null without a key). */
  vastai: VastaiDeps;
  payments: PaymentDeps;
}

/** Parts of the container the container factory lets callers (tests, main) replace. */
export interface ContainerOverrides {
  clock?: Clock;
  log?: FastifyBaseLogger;
  sms?: SmsDriver;
  payments?: PaymentDriver;
  hostDrivers?: HostDriverRegistry;
  /** vast.ai's client (tests: one with a fast backoff); used only when VASTAI_API_KEY is set. */
  vast?: VastClient;
}
