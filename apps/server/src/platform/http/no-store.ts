import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { AppInstance } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers of this route are never stored by a browser or proxy (besides those found by schema). */
    noStore?: boolean;
  }
}

/** A property that makes an answer secret: a token (access, refresh, admin) or a password. */
const SECRET_PROPERTY = /(token|password)$/i;

/** Whether a JSON schema (or part of one) has a property whose name says it is secret. */
function hasSecretProperty(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasSecretProperty);
  if (!node || typeof node !== 'object') return false;
  const props = (node as { properties?: Record<string, unknown> }).properties;
  if (props && Object.keys(props).some((k) => SECRET_PROPERTY.test(k))) return true;
  return Object.values(node).some(hasSecretProperty);
}

/** Whether an answer of this (zod) response schema carries a token or a password. */
export function answersSecrets(schema: unknown): boolean {
  if (!(schema instanceof z.ZodType)) return hasSecretProperty(schema);
  return hasSecretProperty(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', cycles: 'ref' }));
}

const routesOf = new WeakMap<object, Set<string>>();
/** `METHOD url` of every route whose answers are no-store (tests walk them). */
export const noStoreRoutes = (app: AppInstance): ReadonlySet<string> => routesOf.get(app) ?? new Set();

function noStore(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, p: unknown) => void,
) {
  reply.header('cache-control', 'no-store');
  done(null, payload);
}

/**
 * DESIGN §9: answers carrying tokens or passwords are `Cache-Control: no-store`. Decided once per
 * route when it is added: its success schema names a token or password (login, register, refresh,
 * password and phone changes, admin login, instances with their root password …) or its config
 * says `noStore`. Only those routes get the hook; its errors are no-store too, which costs nothing.
 */
export function registerNoStore(app: AppInstance) {
  const routes = new Set<string>();
  routesOf.set(app, routes);
  app.addHook('onRoute', (options: RouteOptions) => {
    const success = (options.schema?.response as Record<string, unknown> | undefined)?.[200];
    if (!options.config?.noStore && !(success && answersSecrets(success))) return;
    for (const method of [options.method].flat()) routes.add(`${method} ${options.url}`);
    const own = options.onSend ? [options.onSend].flat() : [];
    options.onSend = [...own, noStore as never];
  });
}
