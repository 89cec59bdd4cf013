import {
  changePasswordRequestSchema,
  changePhoneRequestSchema,
  envelopeSchema,
  loginRequestSchema,
  loginResponseSchema,
  phoneSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  sendCodeRequestSchema,
  signInSchema,
  userSchema,
} from '@gpu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { AuthModuleDeps } from './auth.deps.ts';
import { authErrors } from './auth.errors.ts';
import { bearer } from './auth.plugin.ts';
import * as auth from './auth.usecases.ts';
import { signedInUser } from './signed-in.ts';

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
const refreshCookie = (app: AppInstance, request: FastifyRequest): string | undefined => {
  const { secure, legacy } = presentedRefresh(app, request);
  return secure || legacy || undefined;
};
/** Both names' cookies gone (each cleared with the path and Secure flag it was set with). */
function clearRefreshCookies(reply: FastifyReply) {
  reply.clearCookie(SECURE_REFRESH_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'strict' });
  reply.clearCookie(REFRESH_COOKIE, { path: LEGACY_PATH });
}

const availableSchema = envelopeSchema(z.object({ available: z.boolean() }));
const codeSentSchema = envelopeSchema(z.object({ code: z.string().optional() }));
const nullData = envelopeSchema(z.null());
/**
 * Per-IP limits on the endpoints that guess or send (DESIGN §9); per-account limits live in the
 * usecases. Answers with a token are no-store by their schema (plugins/no-store.ts); `noStore`
 * marks those that carry a code or confirm an account instead.
 */
const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
/** Where a session a signed-in user renews comes from (the sign-ins list shows it). */
const originOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 500),
});

export async function authRoutes(app: AppInstance, deps: AuthModuleDeps) {
  /** Outside production the console provider's code is answered so the screen can show it. */
  const revealCode = (code: string | null) =>
    code && !deps.isProduction && deps.sms.kind === 'console' ? { code } : {};

  /**
   * Secure: HTTPS as this server sees it (X-Forwarded-Proto counts only from a TRUST_PROXY proxy),
   * or any request in production (where the browser is on HTTPS behind some proxy, as before).
   * A Secure cookie is always the `__Host-` one; plain HTTP keeps the old name and path.
   */
  const setRefreshCookie = (request: FastifyRequest, reply: FastifyReply, s: auth.Session) => {
    const secure = request.protocol === 'https' || deps.isProduction;
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
  };
  const sessionAnswer = (request: FastifyRequest, reply: FastifyReply, s: auth.Session, message: string) => {
    setRefreshCookie(request, reply, s);
    return ok({ accessToken: s.accessToken, user: s.user }, message);
  };

  for (const url of ['/api/auth/login', '/api/auth/phone-login']) {
    app.post(
      url,
      {
        config: limit(20),
        schema: {
          tags: ['auth'],
          summary: '手机号密码登录',
          body: loginRequestSchema,
          response: { 200: envelopeSchema(loginResponseSchema) },
        },
      },
      async (request, reply) => {
        const s = await auth.login(
          deps,
          request.tenant.id,
          request.body,
          request.ip,
          request.headers['user-agent'],
        );
        return sessionAnswer(request, reply, s, `欢迎回来，${s.user.username}`);
      },
    );
  }

  for (const url of ['/api/auth/register', '/api/auth/phone-register']) {
    app.post(
      url,
      {
        config: { ...limit(10), noStore: true },
        schema: {
          tags: ['auth'],
          summary: '手机号注册',
          body: registerRequestSchema,
          response: { 200: envelopeSchema(userSchema) },
        },
      },
      async (request) => ok(await auth.register(deps, request.tenant.id, request.body), '注册成功，请登录'),
    );
  }

  app.get(
    '/api/auth/check-phone',
    {
      config: limit(60),
      schema: {
        tags: ['auth'],
        summary: '手机号是否可注册',
        querystring: z.object({ phone: phoneSchema }),
        response: { 200: availableSchema },
      },
    },
    async (request) =>
      ok({ available: await auth.isAvailable(deps, request.tenant.id, 'phone', request.query.phone) }),
  );
  app.get(
    '/api/auth/check-username',
    {
      config: limit(60),
      schema: {
        tags: ['auth'],
        summary: '用户名是否可用',
        querystring: z.object({
          username: z.string().trim().min(1, '请输入用户名').max(50, '用户名不能超过50个字符'),
        }),
        response: { 200: availableSchema },
      },
    },
    async (request) =>
      ok({
        available: await auth.isAvailable(deps, request.tenant.id, 'username', request.query.username),
      }),
  );
  app.get(
    '/api/auth/check-email',
    {
      config: limit(60),
      schema: {
        tags: ['auth'],
        summary: '邮箱是否可用',
        querystring: z.object({ email: z.string().trim().max(254) }),
        response: { 200: availableSchema },
      },
    },
    async (request) => {
      if (!z.email().safeParse(request.query.email).success) throw authErrors.emailInvalid();
      return ok({
        available: await auth.isAvailable(deps, request.tenant.id, 'email', request.query.email),
      });
    },
  );

  app.post(
    '/api/auth/send-verification-code',
    {
      config: { ...limit(10), noStore: true },
      schema: {
        tags: ['auth'],
        summary: '发送短信验证码',
        body: sendCodeRequestSchema,
        response: { 200: codeSentSchema },
      },
    },
    async (request) =>
      ok(
        revealCode(await auth.sendCode(deps, request.tenant.id, request.body, request.ip)),
        '验证码发送成功',
      ),
  );
  app.post(
    '/api/auth/send-reset-password-code',
    {
      config: { ...limit(10), noStore: true },
      schema: {
        tags: ['auth'],
        summary: '发送重置密码验证码',
        body: z.object({ phone: phoneSchema }),
        response: { 200: codeSentSchema },
      },
    },
    async (request) => {
      const input = { phone: request.body.phone, codeType: 'RESET_PASSWORD' as const };
      return ok(
        revealCode(await auth.sendCode(deps, request.tenant.id, input, request.ip)),
        '验证码发送成功',
      );
    },
  );
  app.post(
    '/api/auth/reset-password',
    {
      config: limit(10),
      schema: {
        tags: ['auth'],
        summary: '重置密码',
        body: resetPasswordRequestSchema,
        response: { 200: nullData },
      },
    },
    async (request, reply) => {
      await auth.resetPassword(deps, request.tenant.id, request.body);
      clearRefreshCookies(reply);
      return ok(null, '密码重置成功，请使用新密码登录');
    },
  );

  app.post(
    '/api/auth/refresh',
    {
      config: limit(60),
      schema: {
        tags: ['auth'],
        summary: '刷新访问令牌',
        response: { 200: envelopeSchema(loginResponseSchema) },
      },
    },
    async (request, reply) => {
      try {
        return sessionAnswer(
          request,
          reply,
          await auth.refresh(deps, request.tenant.id, refreshCookie(app, request)),
          '成功',
        );
      } catch (err) {
        clearRefreshCookies(reply);
        throw err;
      }
    },
  );
  app.post(
    '/api/auth/logout',
    { schema: { tags: ['auth'], summary: '退出登录', response: { 200: nullData } } },
    async (request, reply) => {
      await auth.logout(deps, { refreshToken: refreshCookie(app, request), accessToken: bearer(request) });
      clearRefreshCookies(reply);
      return ok(null, '已退出登录');
    },
  );
  app.get(
    '/api/auth/me',
    {
      preHandler: app.requireUser,
      schema: { tags: ['auth'], summary: '当前用户', response: { 200: envelopeSchema(userSchema) } },
    },
    async (request) => ok(await auth.currentUser(deps, signedInUser(request).id)),
  );
  app.post(
    '/api/auth/change-password',
    {
      preHandler: app.requireUser,
      config: limit(10),
      schema: {
        tags: ['auth'],
        summary: '修改密码',
        body: changePasswordRequestSchema,
        response: { 200: envelopeSchema(loginResponseSchema) },
      },
    },
    async (request, reply) =>
      sessionAnswer(
        request,
        reply,
        await auth.changePassword(deps, signedInUser(request).id, request.body, originOf(request)),
        '密码修改成功',
      ),
  );
  app.post(
    '/api/user/change-phone',
    {
      preHandler: app.requireUser,
      config: limit(10),
      schema: {
        tags: ['auth'],
        summary: '更换手机号（当前密码和新手机号验证码；其他登录全部退出）',
        body: changePhoneRequestSchema,
        response: { 200: envelopeSchema(loginResponseSchema) },
      },
    },
    async (request, reply) =>
      sessionAnswer(
        request,
        reply,
        await auth.changePhone(deps, signedInUser(request).id, request.body, originOf(request)),
        '手机号已更换',
      ),
  );
  app.get(
    '/api/user/sign-ins',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['auth'],
        summary: '最近登录记录',
        response: { 200: envelopeSchema(z.array(signInSchema)) },
      },
    },
    async (request) =>
      ok(await auth.recentSignIns(deps, signedInUser(request).id, signedInUser(request).sessionId)),
  );
}
