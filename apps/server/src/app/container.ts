import { createAuthRepository } from '../modules/auth/auth.repository.ts';
import { createTokenService } from '../modules/auth/tokens.ts';
import { createDiscountService } from '../modules/discounts/discounts.usecases.ts';
import { createHostDriverRegistry } from '../modules/hosts/drivers/registry.ts';
import { createVastClient } from '../modules/hosts/drivers/vastai/vastai-api.ts';
import { createInstanceJobs } from '../modules/instances/jobs/jobs.usecases.ts';
import { createMarketReadModel } from '../modules/market/market.read-model.ts';
import { createMarketCatalog } from '../modules/market/market.usecases.ts';
import { createPaymentDriver } from '../modules/payments/drivers/registry.ts';
import { createSmsDriver } from '../modules/sms/drivers/registry.ts';
import { createTenantService } from '../modules/tenants/tenants.usecases.ts';
import { createVastaiRentals } from '../modules/vastai/rentals.usecases.ts';
import { overseasMarketRows } from '../modules/vastai/vastai.usecases.ts';
import { systemClock } from '../platform/clock.ts';
import type { Database } from '../platform/db/client.ts';
import { createRequestLoad } from '../platform/request-load.ts';
import { secretBoxOf } from '../platform/secret-box.ts';
import type { Config } from './config.ts';
import type { Container, ContainerOverrides } from './types.ts';

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
} as unknown as Container['log'];

/**
 * Builds every dependency of the app once: drivers, services, repositories and each feature's
 * usecase deps. buildServer hands it to the modules; tests build it with test settings and
 * replace the outside world (clock, SMS, payments, host drivers) through `overrides`.
 */
export function createContainer(
  config: Config,
  database: Database,
  overrides: ContainerOverrides = {},
): Container {
  const db = database.db;
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? silentLog;
  const now = () => clock.now();

  // APP_SECRET seals; APP_SECRET_PREVIOUS still opens what older secrets sealed.
  const box = secretBoxOf(config);
  const discounts = createDiscountService({ db, now });
  const overseasPricing = { usdCny: config.VASTAI_USD_CNY, marginPercent: config.VASTAI_MARGIN_PERCENT };
  const services: Container['services'] = {
    tenants: createTenantService({ db, clock }),
    tokens: createTokenService(config.appSecret, now),
    discounts,
    // The catalog computes the market; the read model around it keeps answers until invalidated.
    market: createMarketReadModel({
      catalog: createMarketCatalog({
        db,
        now,
        discounts,
        overseas: (tenant) =>
          overseasMarketRows(
            { db, configured: Boolean(config.VASTAI_API_KEY), pricing: overseasPricing },
            tenant,
          ),
      }),
      discounts,
      database,
      now,
      log,
    }),
  };
  const drivers: Container['drivers'] = {
    host:
      overrides.hostDrivers ??
      createHostDriverRegistry({
        db,
        now,
        box,
        hostNetworks: config.HOST_NETWORKS,
        vastai: {
          apiKey: config.VASTAI_API_KEY,
          apiUrl: config.VASTAI_API_URL,
          rentals: createVastaiRentals({ db }),
        },
      }),
    payment: overrides.payments ?? createPaymentDriver(config, { db }),
    sms: overrides.sms ?? createSmsDriver(config, log),
  };

  // The jobs and the deps refer to each other: a job runs with these deps, a create or power action kicks one.
  const instances: Container['instances'] = {
    db,
    clock,
    hostDrivers: drivers.host,
    market: services.market,
    discounts,
    box,
    retentionDays: config.INSTANCE_RETENTION_DAYS,
    provisionLeaseMs: config.INSTANCE_PROVISION_LEASE_S * 1000,
    jobs: { kick: (id) => jobs.kick(id), drain: () => jobs.drain() },
    log,
  };
  const requests = createRequestLoad();
  const jobs = createInstanceJobs(
    () => instances,
    (err, instanceId) => log.error({ err, instanceId }, 'instance job failed; the sweep retries it'),
    { gate: requests },
  );

  return {
    config,
    database,
    db,
    clock,
    log,
    drivers,
    services,
    repositories: { auth: createAuthRepository({ db }) },
    requests,
    auth: { db, tokens: services.tokens, sms: drivers.sms, now, secret: config.appSecret, log },
    basic: { db, now },
    hosts: {
      db,
      clock,
      hostDrivers: drivers.host,
      market: services.market,
      box,
      hostNetworks: config.HOST_NETWORKS,
      log,
    },
    instances,
    vastai: {
      ...instances,
      vast: config.VASTAI_API_KEY
        ? (overrides.vast ??
          createVastClient({ apiKey: config.VASTAI_API_KEY, apiUrl: config.VASTAI_API_URL }))
        : null,
      pricing: overseasPricing,
    },
    payments: { db, now, payments: drivers.payment, log },
  };
}
