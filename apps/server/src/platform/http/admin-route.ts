import { type AdminActor, idSchema } from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/** Who an admin write is audited as: the admin requireAdmin found, and the request's IP. */
export const adminActor = (request: FastifyRequest): AdminActor => ({
  adminId: request.admin?.id ?? 0,
  ip: request.ip,
});

/** The `{ id }` path params of an admin route; `message` names the thing in Chinese for the 400. */
export const idParamsSchema = (message: string) => z.object({ id: idSchema(message) });
