import {
  envelopeSchema,
  loginRequestSchema,
  loginResponseSchema,
  phoneSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  sendCodeRequestSchema,
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
import { sessionAnswer as answer, clearRefreshCookies, refreshCookie } from './refresh-cookie.ts';

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
const _originOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 500),
});

export async function authRoutes(app: AppInstance, deps: AuthModuleDeps) {
  /** Outside production the console provider's code is answered so the screen can show it. */
  const revealCode = (code: string | null) =>
    code && !deps.isProduction && deps.sms.kind === 'console' ? { code } : {};

  const sessionAnswer = (request: FastifyRequest, reply: FastifyReply, s: auth.Session, message: string) =>
    answer(app, deps.isProduction, request, reply, s, message);

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
}
