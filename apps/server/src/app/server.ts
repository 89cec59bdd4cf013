import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { useChineseZodMessages } from '@gpu/shared';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { adminAuthRoutes } from '../modules/auth/admin-auth.routes.ts';
import { createAuthRepository } from '../modules/auth/auth.repository.ts';
import { authRoutes } from '../modules/auth/auth.routes.ts';
import { registerAuthTasks } from '../modules/auth/auth.tasks.ts';
import { databaseRateLimitStore } from '../modules/auth/rate-limit-store.ts';
import { createTokenService, type TokenService } from '../modules/auth/tokens.ts';
import { billingRoutes } from '../modules/billing/billing.routes.ts';
import { discountsRoutes } from '../modules/discounts/discounts.routes.ts';
import { createDiscountService, type DiscountService } from '../modules/discounts/discounts.usecases.ts';
import { createHostDriverRegistry, type HostDriverRegistry } from '../modules/hosts/drivers/registry.ts';
import { hostsRoutes } from '../modules/hosts/hosts.routes.ts';
import { registerIdempotencyTasks } from '../modules/idempotency/tasks/purge-expired.task.ts';
import { billsRoutes } from '../modules/instances/bills.routes.ts';
import { instancesRoutes } from '../modules/instances/instances.routes.ts';
import { imagesRoutes } from '../modules/market/images.routes.ts';
import { marketRoutes } from '../modules/market/market.routes.ts';
import { createMarketCatalog, type MarketCatalog } from '../modules/market/market.usecases.ts';
import type { PaymentDriver } from '../modules/payments/drivers/payment-driver.ts';
import { createPaymentDriver } from '../modules/payments/drivers/registry.ts';
import { paymentsRoutes } from '../modules/payments/payments.routes.ts';
import { registerPaymentTasks } from '../modules/payments/tasks/index.ts';
import { pricingRoutes } from '../modules/pricing/pricing.routes.ts';
import { createSmsDriver } from '../modules/sms/drivers/registry.ts';
import type { SmsDriver } from '../modules/sms/drivers/sms-driver.ts';
import { systemRoutes } from '../modules/system/system.routes.ts';
import { tenantsRoutes } from '../modules/tenants/tenants.routes.ts';
import { createTenantService, type TenantService } from '../modules/tenants/tenants.usecases.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { createError } from './errors.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/envelope.ts';
import { registerFormBody } from './plugins/form-body.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_HEADER_SIZE,
  MAX_PARAM_LENGTH,
  registerInputGuard,
} from './plugins/input-guard.ts';
import { registerSpa } from './plugins/spa.ts';
import { registerTenantResolution } from './plugins/tenant.ts';
import { createTaskRunner, type TaskRunner } from './tasks.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  tenants: TenantService;
  tokens: TokenService;
  sms: SmsDriver;
  payments: PaymentDriver;
  discounts: DiscountService;
  market: MarketCatalog;
  hostDrivers: HostDriverRegistry;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Scheduled tasks of the features; main.ts starts them when TASKS=on. */
    tasks: TaskRunner;
  }
}

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Where the built SPA is; tests point it elsewhere or at nothing. */
  webDist?: string;
  /** Replaces the configured SMS provider (tests capture codes with it). */
  sms?: SmsDriver;
  /** Replaces the configured payment provider. */
  payments?: PaymentDriver;
  /** Replaces the host driver registry (tests hand in recorded engines or failing drivers). */
  hostDrivers?: HostDriverRegistry;
}

/** A hop count trusts that many proxies nearest to us (what proxy-addr does with a number). */
const trustProxyOption = (v: Config['TRUST_PROXY']) =>
  typeof v === 'number' ? (_address: string, hop: number) => hop < v : v;

/** Builds the whole HTTP app from the modules; main.ts and the tests both use it. */
export async function buildServer(opts: BuildOptions): Promise<AppInstance> {
  useChineseZodMessages();
  const app = Fastify({
    logger: opts.logger ?? false,
    // X-Forwarded-For counts only from the proxies TRUST_PROXY names (none by default).
    trustProxy: trustProxyOption(opts.config.TRUST_PROXY),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    http: { maxHeaderSize: MAX_HEADER_SIZE },
    frameworkErrors,
    clientErrorHandler,
    // A closing server answers 503 to new requests while in-flight ones finish.
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  const clock = opts.clock ?? systemClock;
  const db = opts.database.db;
  const discounts = createDiscountService({ db, now: () => clock.now() });
  const deps: AppDeps = {
    config: opts.config,
    database: opts.database,
    db,
    clock,
    tenants: createTenantService({ db, now: () => clock.now().getTime() }),
    tokens: createTokenService(opts.config.appSecret, () => clock.now()),
    sms: opts.sms ?? createSmsDriver(opts.config, app.log),
    payments: opts.payments ?? createPaymentDriver(opts.config, { db }),
    discounts,
    market: createMarketCatalog({ db, now: () => clock.now(), discounts }),
    hostDrivers: opts.hostDrivers ?? createHostDriverRegistry({ db, now: () => clock.now() }),
  };
  app.decorate('deps', deps);
  const tasks = createTaskRunner(app.log);
  app.decorate('tasks', tasks);
  app.addHook('onClose', () => tasks.stop());

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerFormBody(app);
  registerInputGuard(app);
  // Answers given while closing tell keep-alive clients to go, so close() does not wait on them.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  registerTenantResolution(app, deps.tenants);
  registerAuth(app, createAuthRepository({ db }));
  registerIdempotency(app);

  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    // Counted in the database, so the limits hold across replicas.
    store: databaseRateLimitStore(db, () => clock.now().getTime()),
    enableDraftSpec: false,
    allowList: () => opts.config.RATE_LIMITS === 'off',
    errorResponseBuilder: (_request, ctx) =>
      createError({
        code: 'common.rate_limited',
        status: 429,
        message: `请求过于频繁，请${Math.ceil(ctx.ttl / 1000)}秒后再试`,
      }),
  });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // antd writes its styles at run time; QR codes and uploaded images may be data: URLs.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        scriptSrc: ["'self'"],
        frameSrc: ["'self'", 'https:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Served over plain HTTP on a laptop; HSTS belongs to the TLS-terminating proxy in production.
    strictTransportSecurity: false,
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'GPU 算力租赁平台 API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  for (const routes of [
    systemRoutes,
    tenantsRoutes,
    authRoutes,
    adminAuthRoutes,
    billingRoutes,
    marketRoutes,
    paymentsRoutes,
    hostsRoutes,
    discountsRoutes,
    pricingRoutes,
    imagesRoutes,
    instancesRoutes,
    billsRoutes,
  ]) {
    await routes(app);
  }
  for (const registerTasks of [registerPaymentTasks, registerAuthTasks, registerIdempotencyTasks])
    registerTasks(app);
  await registerSpa(app, opts.webDist);
  return app;
}
