import { registerAdmins } from '../modules/admins/admins.module.ts';
import { auditModule } from '../modules/audit/audit.module.ts';
import { registerAuthModule } from '../modules/auth/auth.module.ts';
import { registerBilling } from '../modules/billing/billing.module.ts';
import { registerBlockchain } from '../modules/blockchain/blockchain.module.ts';
import { registerCatalogue } from '../modules/catalogue/catalogue.module.ts';
import { contactModule } from '../modules/contact/contact.module.ts';
import { registerDiscounts } from '../modules/discounts/discounts.module.ts';
import { registerHosts } from '../modules/hosts/hosts.module.ts';
import { registerIdempotencyModule } from '../modules/idempotency/idempotency.module.ts';
import { registerInstances } from '../modules/instances/instances.module.ts';
import { registerMarket } from '../modules/market/market.module.ts';
import { metricsModule } from '../modules/metrics/metrics.module.ts';
import { registerOperations } from '../modules/operations/operations.module.ts';
import { registerPayments } from '../modules/payments/payments.module.ts';
import { registerPricing } from '../modules/pricing/pricing.module.ts';
import { registerSystem } from '../modules/system/system.module.ts';
import { registerTenants } from '../modules/tenants/tenants.module.ts';
import { registerVastai } from '../modules/vastai/vastai.module.ts';
import { registerVouchers } from '../modules/vouchers/vouchers.module.ts';
import type { AppInstance } from '../platform/http/types.ts';
import type { Core, ModuleDefinition } from '../platform/module.ts';
import type { Container } from './types.ts';

/** A module with its deps built: what the server registers. */
export interface BuiltModule {
  name: string;
  hooks(app: AppInstance): void | Promise<void>;
  register(app: AppInstance): void | Promise<void>;
}

/**
 * The one ordered list of modules. Each module's deps are built here from the core and what it
 * needs (settings, lower modules' services); modules not yet converted to a definition still
 * take the whole container (`legacy`, see docs/decisions.md "Module boundaries").
 */
export function createModules(container: Container): BuiltModule[] {
  const { core, config } = container;
  const use = <Deps, Needs>(m: ModuleDefinition<Deps, Needs>, needs: Needs): BuiltModule => {
    const deps = m.createDeps(core, needs);
    return { name: m.name, hooks: (app) => m.hooks?.(app, deps), register: (app) => m.register(app, deps) };
  };
  const legacy = (
    name: string,
    register: (app: AppInstance, c: Container) => Promise<void>,
  ): BuiltModule => ({
    name,
    hooks: () => {},
    register: (app) => register(app, container),
  });
  return [
    use(metricsModule, config),
    legacy('system', registerSystem),
    legacy('tenants', registerTenants),
    legacy('auth', registerAuthModule),
    legacy('admins', registerAdmins),
    legacy('billing', registerBilling),
    legacy('market', registerMarket),
    legacy('payments', registerPayments),
    legacy('hosts', registerHosts),
    legacy('discounts', registerDiscounts),
    legacy('pricing', registerPricing),
    legacy('instances', registerInstances),
    legacy('idempotency', registerIdempotencyModule),
    use(auditModule, {}),
    legacy('operations', registerOperations),
    legacy('vastai', registerVastai),
    legacy('vouchers', registerVouchers),
    legacy('catalogue', registerCatalogue),
    use(contactModule, {}),
    legacy('blockchain', registerBlockchain),
  ];
}

export type { Core };
