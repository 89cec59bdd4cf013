import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { Aggregate } from '../aggregate-cache.ts';
import { ok } from './envelope.ts';

/** The answer's bytes per computation of the figures (the cache hands out the same object until it refreshes). */
const built = new WeakMap<Aggregate<object>, Buffer>();

/**
 * Sends reused figures (`AggregateCache`) as `ok({ ...figures, computedAt })`, serialized and
 * checked against the route's response `schema` once per computation, not once per request:
 * some are large and grow with the fleet (the operations dashboard lists every host), and each
 * request serialized them again (issue 33). The bytes are built from the figures alone.
 */
export function sendFigures(reply: FastifyReply, figures: Aggregate<object>, schema: z.ZodType) {
  let body = built.get(figures);
  if (!body) {
    const answer = ok({ ...figures.value, computedAt: figures.computedAt.toISOString() });
    body = Buffer.from(JSON.stringify(schema.parse(answer)));
    built.set(figures, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
