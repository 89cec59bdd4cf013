import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler (after requireUser) making a route idempotent per user under `scope`: a request
     * with an `Idempotency-Key` runs once; replays answer the first answer (status and body).
     * Without the header the route behaves as before (idempotency.plugin.ts).
     */
    idempotent: (scope: string) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  }
  interface FastifyRequest {
    /** Set when this request claimed its `Idempotency-Key`: its answer is stored for replays. */
    idempotency: { id: number; key: string } | null;
  }
}
