import { ACCESS_TOKEN_PREFIX } from '@gpu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { commonErrors, isAppError } from '../../platform/errors.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { TokenRequest } from './access-tokens/access-tokens.usecases.ts';
import type { AuthLookups, AuthUser } from './auth.types.ts';
import { routeAccess } from './route-access.ts';
import type { TokenService } from './tokens.ts';

/** The request's bearer token, if it carries one. */
export function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h?.startsWith('Bearer ')) return null;
  return h.slice(7).trim() || null;
}

export function registerAuth(
  app: AppInstance,
  tokens: TokenService,
  lookups: AuthLookups,
  accessTokens: (req: TokenRequest) => Promise<AuthUser>,
) {
  app.decorateRequest('user', null);
  app.decorateRequest('admin', null);

  /** A personal access token (gpu_…) in place of a session: scopes, limit and last use. */
  const byAccessToken = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
    try {
      request.user = await accessTokens({
        token,
        ip: request.ip,
        tenantId: request.tenant.id,
        access: routeAccess(request.method, request.routeOptions.config),
      });
    } catch (err) {
      const retry = isAppError(err)
        ? (err.details as { retryAfterS?: number } | undefined)?.retryAfterS
        : undefined;
      if (retry) reply.header('retry-after', String(retry));
      throw err;
    }
  };

  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(request);
    if (token?.startsWith(ACCESS_TOKEN_PREFIX)) return byAccessToken(request, reply, token);
    const claims = token ? await tokens.verify(token, 'user') : null;
    if (!claims) throw commonErrors.unauthorized('登录已失效，请重新登录');
    const user = await lookups.findActiveUser(Number(claims.sub), claims.ims, claims.sid);
    // A user token is only good on its own tenant's hosts.
    if (!user || user.tenantId !== request.tenant.id)
      throw commonErrors.unauthorized('登录已失效，请重新登录');
    request.user = { ...user, sessionId: claims.sid, accessToken: null };
  });

  // Authentication comes before validation on every route, whichever hook a route names it in:
  // a stranger must get 401/403, never a 400 describing the body an admin route expects.
  const isAuth = (h: unknown) => h === app.requireUser || h === app.requireAdmin;
  app.addHook('onRoute', (options) => {
    const route = options as unknown as Record<string, unknown>;
    const moved: unknown[] = [];
    for (const stage of ['preParsing', 'preValidation', 'preHandler'] as const) {
      const hooks = route[stage];
      if (!hooks) continue;
      const list = (Array.isArray(hooks) ? hooks : [hooks]) as unknown[];
      moved.push(...list.filter(isAuth));
      const rest = list.filter((h) => !isAuth(h));
      route[stage] = rest.length > 0 ? rest : undefined;
    }
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    if (moved.length > 0) route.onRequest = [...moved, ...own];
    // Every customer route that changes something says what an access token needs for it:
    // a scope, or 'session' for none. Forgetting is a startup error, not a silent default.
    const writes = [options.method].flat().some((m) => m !== 'GET' && m !== 'HEAD');
    if (writes && [...moved, ...own].includes(app.requireUser) && !options.config?.access)
      throw new Error(`${options.method} ${options.url}: a customer route that writes needs config.access`);
  });

  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    const token = bearer(request);
    const claims = token ? await tokens.verify(token, 'admin') : null;
    if (!claims) throw commonErrors.unauthorized('管理员登录已失效，请重新登录');
    const admin = await lookups.findActiveAdmin(Number(claims.sub), claims.ims, claims.sid);
    if (!admin?.roles.includes('ADMIN')) throw commonErrors.unauthorized('管理员登录已失效，请重新登录');
    request.admin = { ...admin, sessionId: claims.sid };
  });
}
