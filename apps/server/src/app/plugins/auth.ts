import type { FastifyReply, FastifyRequest } from 'fastify';
import { commonErrors } from '../errors.ts';
import type { AppInstance } from '../server.ts';

export interface AuthUser {
  id: number;
  tenantId: number;
}

export interface AuthAdmin {
  id: number;
  username: string;
  roles: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
    admin: AuthAdmin | null;
  }
  interface FastifyInstance {
    /** preHandler: a valid user token of this request's tenant, else 401. */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: a valid admin token with role ADMIN, else 401. */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** Looks up whether the subject may still act: status and tokens-valid-after, read per request. */
export interface AuthLookups {
  findActiveUser(id: number, issuedAtMs: number): Promise<AuthUser | null>;
  findActiveAdmin(id: number, issuedAtMs: number): Promise<AuthAdmin | null>;
}

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h?.startsWith('Bearer ')) return null;
  return h.slice(7).trim() || null;
}

export function registerAuth(app: AppInstance, lookups: AuthLookups) {
  const { tokens } = app.deps;
  app.decorateRequest('user', null);
  app.decorateRequest('admin', null);

  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearer(request);
    const claims = token ? await tokens.verify(token, 'user') : null;
    if (!claims) throw commonErrors.unauthorized('登录已失效，请重新登录');
    const user = await lookups.findActiveUser(Number(claims.sub), claims.ims);
    // A user token is only good on its own tenant's hosts.
    if (!user || user.tenantId !== request.tenant.id)
      throw commonErrors.unauthorized('登录已失效，请重新登录');
    request.user = user;
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    const token = bearer(request);
    const claims = token ? await tokens.verify(token, 'admin') : null;
    if (!claims) throw commonErrors.unauthorized('管理员登录已失效，请重新登录');
    const admin = await lookups.findActiveAdmin(Number(claims.sub), claims.ims);
    if (!admin || !admin.roles.includes('ADMIN'))
      throw commonErrors.unauthorized('管理员登录已失效，请重新登录');
    request.admin = admin;
  });
}
