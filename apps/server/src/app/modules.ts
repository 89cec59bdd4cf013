import { adminsModule } from '../modules/admins/admins.module.ts';
import { auditModule } from '../modules/audit/audit.module.ts';
import { authModule } from '../modules/auth/auth.module.ts';
import { billingModule } from '../modules/billing/billing.module.ts';
import { blockchainModule } from '../modules/blockchain/blockchain.module.ts';
import { catalogueModule } from '../modules/catalogue/catalogue.module.ts';
import { contactModule } from '../modules/contact/contact.module.ts';
import { discountsModule } from '../modules/discounts/discounts.module.ts';
import { guardsModule } from '../modules/guards/guards.module.ts';
import { createHostDriverRegistry } from '../modules/hosts/drivers/registry.ts';
import { hostsModule } from '../modules/hosts/hosts.module.ts';
import { idempotencyModule } from '../modules/idempotency/idempotency.module.ts';
import { createInstancesRepository } from '../modules/instances/index.ts';
import { instancesModule } from '../modules/instances/instances.module.ts';
import { createLedgerRepository } from '../modules/ledger/index.ts';
import { ledgerModule } from '../modules/ledger/ledger.module.ts';
import { marketModule } from '../modules/market/market.module.ts';
import { metricsModule } from '../modules/metrics/metrics.module.ts';
import { monitoringModule } from '../modules/monitoring/monitoring.module.ts';
import { noticesModule } from '../modules/notices/notices.module.ts';
import { operationsModule } from '../modules/operations/operations.module.ts';
import { paymentsModule } from '../modules/payments/payments.module.ts';
import { pricingModule } from '../modules/pricing/pricing.module.ts';
import { smsModule } from '../modules/sms/sms.module.ts';
import { sshKeysModule } from '../modules/ssh-keys/ssh-keys.module.ts';
import { systemModule } from '../modules/system/system.module.ts';
import { tenantAdminModule } from '../modules/tenant-admin/tenant-admin.module.ts';
import { tenantsModule } from '../modules/tenants/tenants.module.ts';
import { createVastaiRentals, overseasMarketRows } from '../modules/vastai/index.ts';
import { vastaiModule } from '../modules/vastai/vastai.module.ts';
import { vouchersModule } from '../modules/vouchers/vouchers.module.ts';
import type { AppInstance } from '../platform/http/types.ts';
import type { Core, ModuleDefinition } from '../platform/module.ts';
import type { Config } from './config.ts';
import type { ContainerOverrides } from './types.ts';

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
 * The one ordered list of modules, lowest first. Each module's deps are built from the core, its
 * settings and the public services of the modules before it; a module below another never names
 * it: what must reach upward (the market changed, open a balance account, was an instance ever
 * placed on this host) is a function handed in here. Registration follows the same order.
 */
export function createModules(core: Core, config: Config, overrides: ContainerOverrides) {
  const { db } = core;
  // Lower modules tell the market that something it shows changed; the market is built later.
  const marketChanged = (opts?: { discounts?: boolean }) => market.market.invalidate(opts);
  const overseasPricing = { usdCny: config.VASTAI_USD_CNY, marginPercent: config.VASTAI_MARGIN_PERCENT };

  const sms = smsModule.createDeps(core, { settings: config, driver: overrides.sms });
  const tenants = tenantsModule.createDeps(core, { isProduction: config.isProduction });
  const auth = authModule.createDeps(core, {
    appSecret: config.appSecret,
    isProduction: config.isProduction,
    sms: sms.driver,
    openAccount: (tx, owner) => createLedgerRepository({ db: tx }).openAccount(owner),
    codeDailyCapPerIp: config.CODE_DAILY_CAP_PER_IP,
  });
  const audit = auditModule.createDeps(core, {});
  const admins = adminsModule.createDeps(core, { auth });
  const hostDrivers =
    overrides.hostDrivers ??
    createHostDriverRegistry({
      db,
      now: () => core.clock.now(),
      box: core.box,
      hostNetworks: config.HOST_NETWORKS,
      vastai: {
        apiKey: config.VASTAI_API_KEY,
        apiUrl: config.VASTAI_API_URL,
        rentals: createVastaiRentals({ db }),
      },
    });
  const hosts = hostsModule.createDeps(core, {
    hostDrivers,
    hostNetworks: config.HOST_NETWORKS,
    hasHistory: (tx, hostId) => createInstancesRepository({ db: tx }).placedOnHost(hostId),
    changed: () => marketChanged(),
    statsTtlMs: config.ADMIN_STATS_CACHE_S * 1000,
  });
  const discounts = discountsModule.createDeps(core, {
    changed: () => marketChanged({ discounts: true }),
    statsTtlMs: config.ADMIN_STATS_CACHE_S * 1000,
  });
  const vouchers = vouchersModule.createDeps(core, {});
  const market = marketModule.createDeps(core, {
    discounts: discounts.service,
    hostDrivers,
    overseas: (tenant) =>
      overseasMarketRows(
        { db, configured: Boolean(config.VASTAI_API_KEY), pricing: overseasPricing },
        tenant,
      ),
  });
  const pricing = pricingModule.createDeps(core, { discounts: discounts.service });
  const ledger = ledgerModule.createDeps(core, {});
  const idempotency = idempotencyModule.createDeps(core, {});
  const contact = contactModule.createDeps(core, {});
  const notices = noticesModule.createDeps(core, {
    sms: sms.driver,
    webhookAllowPrivate: config.webhookAllowPrivate,
  });
  const payments = paymentsModule.createDeps(core, { settings: config, driver: overrides.payments });
  const blockchain = blockchainModule.createDeps(core, { settings: config });
  // Below instances: a container gets its owner's keys when it is made or started.
  const sshKeys = sshKeysModule.createDeps(core, {});
  const instances = instancesModule.createDeps(core, {
    settings: config,
    hostDrivers,
    market: market.market,
    discounts: discounts.service,
    hosts,
  });
  const monitoring = monitoringModule.createDeps(core, { hostDrivers });
  const guards = guardsModule.createDeps(core, { instances });
  const billing = billingModule.createDeps(core, {});
  const vastai = vastaiModule.createDeps(core, {
    settings: config,
    instances,
    pricing: overseasPricing,
    vast: overrides.vast,
  });
  const operations = operationsModule.createDeps(core, {
    instances,
    statsTtlMs: config.ADMIN_STATS_CACHE_S * 1000,
  });
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
    market,
    pricing,
    ledger,
    idempotency,
    contact,
    notices,
    payments,
    blockchain,
    sshKeys,
    instances,
    monitoring,
    guards,
    billing,
    vastai,
    operations,
    catalogue,
    tenantAdmin,
    metrics,
    system,
  };
  const list: BuiltModule[] = [
    built(smsModule, sms),
    built(tenantsModule, tenants),
    built(authModule, auth),
    built(auditModule, audit),
    built(adminsModule, admins),
    built(hostsModule, hosts),
    built(discountsModule, discounts),
    built(vouchersModule, vouchers),
    built(marketModule, market),
    built(pricingModule, pricing),
    built(ledgerModule, ledger),
    built(idempotencyModule, idempotency),
    built(contactModule, contact),
    built(noticesModule, notices),
    built(paymentsModule, payments),
    built(blockchainModule, blockchain),
    built(sshKeysModule, sshKeys),
    built(instancesModule, instances),
    built(monitoringModule, monitoring),
    built(guardsModule, guards),
    built(billingModule, billing),
    built(vastaiModule, vastai),
    built(operationsModule, operations),
    built(catalogueModule, catalogue),
    built(tenantAdminModule, tenantAdmin),
    built(metricsModule, metrics),
    built(systemModule, system),
  ];
  return { modules, list };
}

export type Modules = ReturnType<typeof createModules>['modules'];
