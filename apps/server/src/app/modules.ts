import { adminsModule } from '../modules/admins/admins.module.ts';
import { auditModule } from '../modules/audit/audit.module.ts';
import { authModule } from '../modules/auth/auth.module.ts';
import { billingModule } from '../modules/billing/billing.module.ts';
import { createBillingRepository } from '../modules/billing/index.ts';
import { blockchainModule } from '../modules/blockchain/blockchain.module.ts';
import { catalogueModule } from '../modules/catalogue/catalogue.module.ts';
import { contactModule } from '../modules/contact/contact.module.ts';
import { discountsModule } from '../modules/discounts/discounts.module.ts';
import { createHostDriverRegistry } from '../modules/hosts/drivers/registry.ts';
import { createVastClient } from '../modules/hosts/drivers/vastai/vastai-api.ts';
import { registerHosts } from '../modules/hosts/hosts.module.ts';
import { idempotencyModule } from '../modules/idempotency/idempotency.module.ts';
import { registerInstances } from '../modules/instances/instances.module.ts';
import { createInstanceJobs } from '../modules/instances/jobs/jobs.usecases.ts';
import { marketModule } from '../modules/market/market.module.ts';
import { metricsModule } from '../modules/metrics/metrics.module.ts';
import { noticesModule } from '../modules/notices/notices.module.ts';
import { operationsModule } from '../modules/operations/operations.module.ts';
import { paymentsModule } from '../modules/payments/payments.module.ts';
import { pricingModule } from '../modules/pricing/pricing.module.ts';
import { smsModule } from '../modules/sms/sms.module.ts';
import { systemModule } from '../modules/system/system.module.ts';
import { tenantAdminModule } from '../modules/tenant-admin/tenant-admin.module.ts';
import { tenantsModule } from '../modules/tenants/tenants.module.ts';
import { createVastaiRentals } from '../modules/vastai/rentals.usecases.ts';
import { registerVastai } from '../modules/vastai/vastai.module.ts';
import { overseasMarketRows } from '../modules/vastai/vastai.usecases.ts';
import { vouchersModule } from '../modules/vouchers/vouchers.module.ts';
import type { AppInstance } from '../platform/http/types.ts';
import type { Core, ModuleDefinition } from '../platform/module.ts';
import type { Config } from './config.ts';
import type { Container, ContainerOverrides } from './types.ts';

/** A module with its deps built: what the server registers, in the list's order. */
export interface BuiltModule {
  name: string;
  hooks(app: AppInstance): void | Promise<void>;
  register(app: AppInstance): void | Promise<void>;
}

const built = <Deps, Needs>(m: ModuleDefinition<Deps, Needs>, deps: Deps): BuiltModule => ({
  name: m.name,
  hooks: (app) => m.hooks?.(app, deps),
  register: (app) => m.register(app, deps),
});

/**
 * The one ordered list of modules, lowest first: each module's deps are built from the core, its
 * settings and the public services of the modules before it; a module below another never names
 * it (what must reach upward, such as "the market changed", is a function handed in here).
 * hosts, billing, instances and vastai still take the whole container (`legacy`) until they are
 * converted (docs/decisions.md, "Module boundaries").
 */
export function createModules(core: Core, config: Config, overrides: ContainerOverrides) {
  const { db, clock, log } = core;
  const now = () => clock.now();
  // Lower modules tell the market that something it shows changed; the market is built later.
  const marketChanged = (opts?: { discounts?: boolean }) => market.market.invalidate(opts);

  const sms = smsModule.createDeps(core, { settings: config, driver: overrides.sms });
  const tenants = tenantsModule.createDeps(core, { isProduction: config.isProduction });
  const auth = authModule.createDeps(core, {
    appSecret: config.appSecret,
    isProduction: config.isProduction,
    sms: sms.driver,
    openAccount: (tx, owner) => createBillingRepository({ db: tx }).openAccount(owner),
  });
  const audit = auditModule.createDeps(core, {});
  const admins = adminsModule.createDeps(core, { auth });
  const hostDrivers =
    overrides.hostDrivers ??
    createHostDriverRegistry({
      db,
      now,
      box: core.box,
      hostNetworks: config.HOST_NETWORKS,
      vastai: {
        apiKey: config.VASTAI_API_KEY,
        apiUrl: config.VASTAI_API_URL,
        rentals: createVastaiRentals({ db }),
      },
    });
  const discounts = discountsModule.createDeps(core, { changed: () => marketChanged({ discounts: true }) });
  const vouchers = vouchersModule.createDeps(core, {});
  const pricing = pricingModule.createDeps(core, { discounts: discounts.service });
  const overseasPricing = { usdCny: config.VASTAI_USD_CNY, marginPercent: config.VASTAI_MARGIN_PERCENT };
  const market = marketModule.createDeps(core, {
    discounts: discounts.service,
    hostDrivers,
    overseas: (tenant) =>
      overseasMarketRows(
        { db, configured: Boolean(config.VASTAI_API_KEY), pricing: overseasPricing },
        tenant,
      ),
  });
  const billing = billingModule.createDeps(core, {});
  const idempotency = idempotencyModule.createDeps(core, {});
  const contact = contactModule.createDeps(core, {});
  const notices = noticesModule.createDeps(core, {});
  const payments = paymentsModule.createDeps(core, { settings: config, driver: overrides.payments });
  const blockchain = blockchainModule.createDeps(core, { settings: config });

  // Not yet module definitions: hosts, billing, instances and vastai read these records.
  const hosts: Container['hosts'] = {
    db,
    clock,
    hostDrivers,
    market: market.market,
    box: core.box,
    hostNetworks: config.HOST_NETWORKS,
    log,
  };
  // The jobs and the deps refer to each other: a job runs with these deps, a create or power action kicks one.
  const instances: Container['instances'] = {
    db,
    clock,
    hostDrivers,
    market: market.market,
    discounts: discounts.service,
    box: core.box,
    retentionDays: config.INSTANCE_RETENTION_DAYS,
    provisionLeaseMs: config.INSTANCE_PROVISION_LEASE_S * 1000,
    jobs: { kick: (id) => jobs.kick(id), drain: () => jobs.drain() },
    log,
  };
  const jobs = createInstanceJobs(
    () => instances,
    (err, instanceId) => log.error({ err, instanceId }, 'instance job failed; the sweep retries it'),
    { gate: core.requests },
  );
  const vastai: Container['vastai'] = {
    ...instances,
    vast: config.VASTAI_API_KEY
      ? (overrides.vast ?? createVastClient({ apiKey: config.VASTAI_API_KEY, apiUrl: config.VASTAI_API_URL }))
      : null,
    pricing: overseasPricing,
  };
  const operations = operationsModule.createDeps(core, { instances });
  const catalogue = catalogueModule.createDeps(core, { changed: () => marketChanged() });
  const tenantAdmin = tenantAdminModule.createDeps(core, {
    changed: () => {
      tenants.service.invalidate();
      marketChanged();
    },
  });
  const metrics = metricsModule.createDeps(core, config);
  const system = systemModule.createDeps(core, {});

  const modules = {
    sms,
    tenants,
    auth,
    audit,
    admins,
    hosts,
    discounts,
    vouchers,
    pricing,
    market,
    billing,
    idempotency,
    contact,
    notices,
    payments,
    blockchain,
    instances,
    vastai,
    operations,
    catalogue,
    tenantAdmin,
    metrics,
    system,
  };
  return { modules, list: (container: Container) => moduleList(modules, container) };
}

export type Modules = ReturnType<typeof createModules>['modules'];

/** Registration follows the same order. */
function moduleList(m: Modules, container: Container): BuiltModule[] {
  const legacy = (name: string, register: (app: AppInstance, c: Container) => Promise<void>) => ({
    name,
    hooks: () => {},
    register: (app: AppInstance) => register(app, container),
  });
  const {
    sms,
    tenants,
    auth,
    audit,
    admins,
    discounts,
    vouchers,
    pricing,
    market,
    billing,
    idempotency,
    contact,
    notices,
    payments,
    blockchain,
    operations,
    catalogue,
    tenantAdmin,
    metrics,
    system,
  } = m;
  return [
    built(smsModule, sms),
    built(tenantsModule, tenants),
    built(authModule, auth),
    built(auditModule, audit),
    built(adminsModule, admins),
    legacy('hosts', registerHosts),
    built(discountsModule, discounts),
    built(vouchersModule, vouchers),
    built(pricingModule, pricing),
    built(marketModule, market),
    built(billingModule, billing),
    built(idempotencyModule, idempotency),
    built(contactModule, contact),
    built(noticesModule, notices),
    built(paymentsModule, payments),
    built(blockchainModule, blockchain),
    legacy('instances', registerInstances),
    legacy('vastai', registerVastai),
    built(operationsModule, operations),
    built(catalogueModule, catalogue),
    built(tenantAdminModule, tenantAdmin),
    built(metricsModule, metrics),
    built(systemModule, system),
  ];
}
