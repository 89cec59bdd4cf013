import type { RouteAccess } from '@gpu/shared';
import type { FastifyContextConfig } from 'fastify';

/**
 * What a personal access token needs on a route: its `config.access`, else `read` for GET and
 * HEAD and `session` for any other method. The one rule the auth hook and the API document share.
 */
export function routeAccess(method: string, config: FastifyContextConfig | undefined): RouteAccess {
  if (config?.access) return config.access;
  return method === 'GET' || method === 'HEAD' ? 'read' : 'session';
}

const STAGES = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

/** Whether a route (its options, in an `onRoute` hook) needs a signed-in customer. */
export const requiresUser = (app: { requireUser: unknown }, route: object): boolean =>
  STAGES.some((stage) => [(route as Record<string, unknown>)[stage]].flat().includes(app.requireUser));
