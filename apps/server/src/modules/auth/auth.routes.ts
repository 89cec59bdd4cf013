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
import { bearer } from '../../app/plugins/auth.ts';
import { ok } from '../../app/plugins/envelope.ts';
import type { AppInstance, Container } from '../../app/types.ts';
import { authErrors } from './auth.errors.ts';
import * as auth from './auth.usecases.ts';

export const REFRESH_COOKIE = 'gpu_rt';

/** The refresh token cookie, parsed here (cookies are not parsed on every request). */
const refreshCookie = (app: AppInstance, request: FastifyRequest): string | undefined =>
  request.headers.cookie ? app.parseCookie(request.headers.cookie)[REFRESH_COOKIE] : undefined;
const COOKIE_PATH = '/api/auth';

const availableSchema = envelopeSchema(z.object({ available: z.boolean() }));
const codeSentSchema = envelopeSchema(z.object({ code: z.string().optional() }));
const nullData = envelopeSchema(z.null());
/** Per-IP limits on the endpoints that guess or send (DESIGN §9); per-account limits live in the usecases. */
const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

export async function authRoutes(app: AppInstance, c: Container) {
  const { config } = c;
  const deps = (): auth.AuthDeps => c.auth;
  /** Outside production the console provider's code is answered so the screen can show it. */
  const revealCode = (code: string | null) =>
    code && !config.isProduction && c.drivers.sms.kind === 'console' ? { code } : {};

  const setRefreshCookie = (reply: FastifyReply, s: auth.Session) =>
    reply.setCookie(REFRESH_COOKIE, s.refresh.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: config.isProduction,
      path: COOKIE_PATH,
      // Without "remember me" the cookie dies with the browser session.
      ...(s.refresh.rememberMe ? { expires: s.refresh.expiresAt } : {}),
    });
  const sessionAnswer = (reply: FastifyReply, s: auth.Session, message: string) => {
    setRefreshCookie(reply, s);
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
          deps(),
          request.tenant.id,
          request.body,
          request.ip,
          request.headers['user-agent'],
        );
        return sessionAnswer(reply, s, `欢迎回来，${s.user.username}`);
      },
    );
  }

  for (const url of ['/api/auth/register', '/api/auth/phone-register']) {
    app.post(
      url,
      {
        config: limit(10),
        schema: {
          tags: ['auth'],
          summary: '手机号注册',
          body: registerRequestSchema,
          response: { 200: envelopeSchema(userSchema) },
        },
      },
      async (request) => ok(await auth.register(deps(), request.tenant.id, request.body), '注册成功，请登录'),
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
      ok({ available: await auth.isAvailable(c.basic, request.tenant.id, 'phone', request.query.phone) }),
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
        available: await auth.isAvailable(c.basic, request.tenant.id, 'username', request.query.username),
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
        available: await auth.isAvailable(c.basic, request.tenant.id, 'email', request.query.email),
      });
    },
  );

  app.post(
    '/api/auth/send-verification-code',
    {
      config: limit(10),
      schema: {
        tags: ['auth'],
        summary: '发送短信验证码',
        body: sendCodeRequestSchema,
        response: { 200: codeSentSchema },
      },
    },
    async (request) =>
      ok(
        revealCode(await auth.sendCode(deps(), request.tenant.id, request.body, request.ip)),
        '验证码发送成功',
      ),
  );
  app.post(
    '/api/auth/send-reset-password-code',
    {
      config: limit(10),
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
        revealCode(await auth.sendCode(deps(), request.tenant.id, input, request.ip)),
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
      await auth.resetPassword(deps(), request.tenant.id, request.body);
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
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
          reply,
          await auth.refresh(deps(), request.tenant.id, refreshCookie(app, request)),
          '成功',
        );
      } catch (err) {
        reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
        throw err;
      }
    },
  );
  app.post(
    '/api/auth/logout',
    { schema: { tags: ['auth'], summary: '退出登录', response: { 200: nullData } } },
    async (request, reply) => {
      await auth.logout(deps(), { refreshToken: refreshCookie(app, request), accessToken: bearer(request) });
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      return ok(null, '已退出登录');
    },
  );
  app.get(
    '/api/auth/me',
    {
      preHandler: app.requireUser,
      schema: { tags: ['auth'], summary: '当前用户', response: { 200: envelopeSchema(userSchema) } },
    },
    async (request) => ok(await auth.currentUser(c.basic, request.user?.id as number)),
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
        reply,
        await auth.changePassword(deps(), request.user?.id as number, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent']?.slice(0, 500),
        }),
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
        reply,
        await auth.changePhone(deps(), request.user?.id as number, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent']?.slice(0, 500),
        }),
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
      ok(await auth.recentSignIns(c.basic, request.user?.id as number, request.user?.sessionId)),
  );
}
