import type { FastifyReply, FastifyRequest } from 'fastify';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { Session } from './auth.usecases.ts';

/** What a refresh cookie carries and how long it lives (customers and administrators alike). */
export interface RefreshGrant {
  token: string;
  /** False: the cookie dies with the browser session. */
  rememberMe: boolean;
  expiresAt: Date;
}

/**
 * A refresh cookie of one audience. On plain HTTP (the demo on localhost) it is `name` under
 * `plainPath`; on secure requests `__Host-name`, which makes the browser insist on Secure, Path=/
 * and no Domain, so no sibling host or plain-HTTP page can plant or overwrite it (browsers refuse
 * it on plain HTTP, hence the two names). Secure: HTTPS as this server sees it (X-Forwarded-Proto
 * counts only from a TRUST_PROXY proxy), or any request in production.
 */
export function refreshCookieJar(name: string, plainPath: string) {
  const secureName = `__Host-${name}`;
  const presented = (app: AppInstance, request: FastifyRequest) => {
    const jar = request.headers.cookie ? app.parseCookie(request.headers.cookie) : {};
    return { secure: jar[secureName], plain: jar[name] };
  };
  return {
    name,
    secureName,
    /** The refresh token to use: the `__Host-` one first, the plain one otherwise. */
    read(app: AppInstance, request: FastifyRequest): string | undefined {
      const { secure, plain } = presented(app, request);
      return secure || plain || undefined;
    },
    /** Both names' cookies gone (each cleared with the path and Secure flag it was set with). */
    clear(reply: FastifyReply) {
      reply.clearCookie(secureName, { path: '/', secure: true, httpOnly: true, sameSite: 'strict' });
      reply.clearCookie(name, { path: plainPath });
    },
    set(
      app: AppInstance,
      isProduction: boolean,
      request: FastifyRequest,
      reply: FastifyReply,
      grant: RefreshGrant,
    ) {
      const secure = request.protocol === 'https' || isProduction;
      const lifetime = grant.rememberMe ? { expires: grant.expiresAt } : {};
      const base = { httpOnly: true, sameSite: 'strict', ...lifetime } as const;
      if (!secure) {
        reply.setCookie(name, grant.token, { ...base, secure: false, path: plainPath });
        return;
      }
      reply.setCookie(secureName, grant.token, { ...base, secure: true, path: '/' });
      // The transition: a plain cookie still held is replaced by this one.
      if (presented(app, request).plain !== undefined) reply.clearCookie(name, { path: plainPath });
    },
  };
}

/** Customers' refresh cookie. */
const userJar = refreshCookieJar('gpu_rt', '/api/auth');
export const REFRESH_COOKIE = userJar.name;
export const SECURE_REFRESH_COOKIE = userJar.secureName;
export const refreshCookie = userJar.read;
export const clearRefreshCookies = userJar.clear;

/** A session's answer: the refresh token in its cookie, the access token and user in the body. */
export function sessionAnswer(
  app: AppInstance,
  isProduction: boolean,
  request: FastifyRequest,
  reply: FastifyReply,
  s: Session,
  message: string,
) {
  userJar.set(app, isProduction, request, reply, s.refresh);
  return ok({ accessToken: s.accessToken, user: s.user }, message);
}
