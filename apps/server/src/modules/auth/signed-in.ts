import type { AdminActor } from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import type { AuthAdmin, AuthUser } from './auth.types.ts';

/**
 * The one way a route reads who signed in. requireUser / requireAdmin ran first (a preHandler or
 * onRequest of the route), so a missing subject here is a route wired without them: a bug, not a
 * request to answer with 401.
 */
export function signedInUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error(`${request.routeOptions.url}: requireUser did not run`);
  return request.user;
}

export function signedInAdmin(request: FastifyRequest): AuthAdmin {
  if (!request.admin) throw new Error(`${request.routeOptions.url}: requireAdmin did not run`);
  return request.admin;
}

/**
 * The tenant an administrator's back-office queries are limited to (issue 29): a tenant
 * operator's own tenant, or null for a platform administrator, who sees every tenant.
 */
export const adminTenantScope = (request: FastifyRequest): number | null => signedInAdmin(request).tenantId;

/** Who an admin write is audited as: the admin requireAdmin found, and the request's IP. */
export const adminActor = (request: FastifyRequest): AdminActor => ({
  adminId: signedInAdmin(request).id,
  ip: request.ip,
});

/**
 * A route's per-minute budget for each signed-in customer (route `config`). Authentication runs
 * first (onRequest), so the key is the customer, not the address; a request without a user is
 * refused anyway and counts by address.
 */
export const perCustomerLimit = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => `user:${request.user?.id ?? request.ip}`,
  },
});
