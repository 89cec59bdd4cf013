import type { FastifyReply, FastifyRequest } from 'fastify';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { Session } from './auth.usecases.ts';

/** The refresh cookie's name on plain HTTP (the demo on localhost), and before `__Host-` came. */
export const REFRESH_COOKIE = 'gpu_rt';
/**
 * Its name on secure requests: `__Host-` makes the browser insist on Secure, Path=/ and no
 * Domain, so no sibling host or plain-HTTP page can plant or overwrite it. Browsers refuse it on
 * plain HTTP, which is why the demo keeps the old name.
 */
export const SECURE_REFRESH_COOKIE = `__Host-${REFRESH_COOKIE}`;
const LEGACY_PATH = '/api/auth';

/** The refresh cookies presented (parsed here: cookies are not parsed on every request). */
function presentedRefresh(app: AppInstance, request: FastifyRequest) {
  const jar = request.headers.cookie ? app.parseCookie(request.headers.cookie) : {};
  return { secure: jar[SECURE_REFRESH_COOKIE], legacy: jar[REFRESH_COOKIE] };
}
/** The refresh token to use: the `__Host-` one first, the old name during the transition. */
export const refreshCookie = (app: AppInstance, request: FastifyRequest): string | undefined => {
  const { secure, legacy } = presentedRefresh(app, request);
  return secure || legacy || undefined;
};
/** Both names' cookies gone (each cleared with the path and Secure flag it was set with). */
export function clearRefreshCookies(reply: FastifyReply) {
  reply.clearCookie(SECURE_REFRESH_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'strict' });
  reply.clearCookie(REFRESH_COOKIE, { path: LEGACY_PATH });
}

/**
 * Secure: HTTPS as this server sees it (X-Forwarded-Proto counts only from a TRUST_PROXY proxy),
 * or any request in production (where the browser is on HTTPS behind some proxy, as before).
 * A Secure cookie is always the `__Host-` one; plain HTTP keeps the old name and path.
 */
export function setRefreshCookie(
  app: AppInstance,
  isProduction: boolean,
  request: FastifyRequest,
  reply: FastifyReply,
  s: Session,
) {
  const secure = request.protocol === 'https' || isProduction;
  // Without "remember me" the cookie dies with the browser session.
  const lifetime = s.refresh.rememberMe ? { expires: s.refresh.expiresAt } : {};
  const base = { httpOnly: true, sameSite: 'strict', ...lifetime } as const;
  if (!secure) {
    reply.setCookie(REFRESH_COOKIE, s.refresh.token, { ...base, secure: false, path: LEGACY_PATH });
    return;
  }
  reply.setCookie(SECURE_REFRESH_COOKIE, s.refresh.token, { ...base, secure: true, path: '/' });
  // The transition: an old-name cookie still held is replaced by this one.
  if (presentedRefresh(app, request).legacy !== undefined)
    reply.clearCookie(REFRESH_COOKIE, { path: LEGACY_PATH });
}

/** A session's answer: the refresh token in its cookie, the access token and user in the body. */
export function sessionAnswer(
  app: AppInstance,
  isProduction: boolean,
  request: FastifyRequest,
  reply: FastifyReply,
  s: Session,
  message: string,
) {
  setRefreshCookie(app, isProduction, request, reply, s);
  return ok({ accessToken: s.accessToken, user: s.user }, message);
}
