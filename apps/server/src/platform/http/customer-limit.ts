import type { FastifyRequest } from 'fastify';

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
