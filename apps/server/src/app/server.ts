import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import * as shared from '@gpu/shared';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { databaseRateLimitStore } from '../modules/auth/index.ts';
import type { HostDriverRegistry } from '../modules/hosts/drivers/registry.ts';
import type { PaymentDriver } from '../modules/payments/drivers/payment-driver.ts';
import type { SmsDriver } from '../modules/sms/drivers/sms-driver.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/client.ts';
import { createError } from '../platform/errors.ts';
import { deepFreeze } from '../platform/freeze.ts';
import { registerErrorHandling } from '../platform/http/envelope.ts';
import { registerFormBody } from '../platform/http/form-body.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_HEADER_SIZE,
  MAX_PARAM_LENGTH,
  registerInputGuard,
} from '../platform/http/input-guard.ts';
import { registerNoStore } from '../platform/http/no-store.ts';
import { createSecurityHeaders } from '../platform/http/security-headers.ts';
import { registerSpa } from '../platform/http/spa.ts';
import type { AppInstance } from '../platform/http/types.ts';
import { registerApiDocs } from './api-docs.ts';
import type { Config } from './config.ts';
import { createContainer } from './container.ts';

export type { AppInstance } from '../platform/http/types.ts';

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

/** A caller's (or the proxy's) X-Request-Id is kept when it looks like an id; else a new UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;
export const requestId = (header: string | string[] | undefined) =>
  typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();

/** Builds the whole HTTP app from the modules; main.ts and the tests both use it. */
export async function buildServer(opts: BuildOptions): Promise<AppInstance> {
  shared.useChineseZodMessages();
  // The shared constants (labels, enumerations, defaults) are one copy per process that every
  // request reads: frozen, so no request can change them for the others (issue 26).
  for (const value of Object.values(shared)) deepFreeze(value);
  const app = Fastify({
    logger: opts.logger ?? false,
    // X-Forwarded-For counts only from the proxies TRUST_PROXY names (none by default).
    trustProxy: trustProxyOption(opts.config.TRUST_PROXY),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A client has REQUEST_TIMEOUT_S for the whole request and HEADERS_TIMEOUT_S for its headers,
    // then gets a 408 and the socket closes (a trickled body held a socket for minutes). Node
    // checks every second, not every 30 s, so a limit holds to about a second.
    requestTimeout: opts.config.REQUEST_TIMEOUT_S * 1000,
    http: {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout: opts.config.HEADERS_TIMEOUT_S * 1000,
      requestTimeout: opts.config.REQUEST_TIMEOUT_S * 1000,
      connectionsCheckingInterval: 1000,
    },
    frameworkErrors,
    clientErrorHandler,
    // A closing server answers 503 to new requests while in-flight ones finish.
    return503OnClosing: true,
    // Every log line of a request carries its id (reqId, Fastify's label); the answer echoes it (onSend below).
    genReqId: (req) => requestId(req.headers['x-request-id']),
  }).withTypeProvider<ZodTypeProvider>();

  const deps = createContainer(opts.config, opts.database, {
    clock: opts.clock,
    log: app.log,
    sms: opts.sms,
    payments: opts.payments,
    hostDrivers: opts.hostDrivers,
  });
  const { db, clock } = deps.core;
  app.decorate('deps', deps);
  const { tasks } = deps.core;
  app.decorate('tasks', tasks);
  app.addHook('onClose', () => tasks.stop());
  // Counted from arrival to the socket's close (answered or abandoned): background jobs yield to them.
  const { requests } = deps.core;
  const requestClosed = () => requests.end();
  app.addHook('onRequest', (_request, reply, done) => {
    requests.begin();
    reply.raw.once('close', requestClosed);
    done();
  });

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
  const securityHeaders = createSecurityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // antd writes its styles at run time; QR codes and uploaded images may be data: URLs.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        scriptSrc: ["'self'"],
        // The tenant's AI navigation page may be http (its setting allows it); on an https
        // site the browser still blocks it as mixed content, which /api/tenant/ai-navigation says.
        frameSrc: ["'self'", 'https:', 'http:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Served over plain HTTP on a laptop; HSTS belongs to the TLS-terminating proxy in production.
    strictTransportSecurity: false,
  });
  // One callback hook for the headers every answer gets: no promise, and one hook call instead
  // of one per concern, on every request (issue 15).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    securityHeaders(reply);
    done(null, payload);
  });
  // What every request goes through comes first (the tenant, then who signs in), before any route.
  for (const m of deps.list) await m.hooks(app);
  registerNoStore(app);

  // Parsed only where read (refreshCookie, auth routes): a hook on every request otherwise (issue 15).
  await app.register(fastifyCookie, { hook: false });
  await app.register(fastifyRateLimit, {
    global: false,
    // Counted in the database, so the limits hold across replicas.
    store: databaseRateLimitStore(db, clock),
    enableDraftSpec: false,
    allowList: () => opts.config.RATE_LIMITS === 'off',
    errorResponseBuilder: (_request, ctx) =>
      createError({
        code: 'common.rate_limited',
        status: 429,
        message: `请求过于频繁，请${Math.ceil(ctx.ttl / 1000)}秒后再试`,
      }),
  });
  // The OpenAPI document sees every route, so it comes before the modules' (API_DOCS: who reads it).
  await registerApiDocs(app, opts.config);

  // Each module adds its routes and its scheduled tasks, in the order of app/modules.ts.
  for (const m of deps.list) await m.register(app);
  await registerSpa(app, opts.webDist);
  return app;
}
