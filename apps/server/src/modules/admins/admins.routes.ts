import {
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminSchema,
  envelopeSchema,
  totpVerifyRequestSchema,
} from '@gpu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { refreshCookieJar, signedInAdmin } from '../auth/index.ts';
import type { AdminsDeps } from './admins.deps.ts';
import {
  type AdminSession,
  adminLogin,
  adminLogout,
  adminRefresh,
  adminVerifySecondFactor,
  currentAdmin,
} from './admins.usecases.ts';

/** Administrators' refresh cookie: its own name, so a customer's and an administrator's never mix. */
export const adminRefreshCookie = refreshCookieJar('gpu_art', '/api/admin/auth');

const origin = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });
const signInLimit = { rateLimit: { max: 20, timeWindow: '1 minute' } };

export async function adminAuthRoutes(app: AppInstance, deps: AdminsDeps) {
  /** SPEC.md §4's answer (token and admin); the refresh token goes into its HttpOnly cookie. */
  const answer = (request: FastifyRequest, reply: FastifyReply, s: AdminSession, message: string) => {
    adminRefreshCookie.set(app, deps.isProduction, request, reply, s.refresh);
    return ok({ token: s.token, admin: s.admin }, message);
  };

  app.post(
    '/api/admin/auth/login',
    {
      config: signInLimit,
      schema: {
        tags: ['admin'],
        summary: '管理员登录（开启两步验证时返回 challenge，再调用 totp/verify）',
        body: adminLoginRequestSchema,
        response: { 200: envelopeSchema(adminLoginResponseSchema) },
      },
    },
    async (request, reply) => {
      const result = await adminLogin(deps, request.body, origin(request));
      if ('mfaRequired' in result) return ok(result, '请输入两步验证码');
      return answer(request, reply, result, '登录成功');
    },
  );
  app.post(
    '/api/admin/auth/totp/verify',
    {
      config: signInLimit,
      schema: {
        tags: ['admin'],
        summary: '两步验证：提交动态验证码或恢复码完成登录',
        body: totpVerifyRequestSchema,
        response: { 200: envelopeSchema(adminLoginResponseSchema) },
      },
    },
    async (request, reply) =>
      answer(request, reply, await adminVerifySecondFactor(deps, request.body, origin(request)), '登录成功'),
  );
  app.post(
    '/api/admin/auth/refresh',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['admin'],
        summary: '用刷新 Cookie 换新的管理员令牌（轮换）',
        response: { 200: envelopeSchema(adminLoginResponseSchema) },
      },
    },
    async (request, reply) => {
      try {
        return answer(
          request,
          reply,
          await adminRefresh(deps, adminRefreshCookie.read(app, request)),
          '已刷新',
        );
      } catch (err) {
        adminRefreshCookie.clear(reply);
        throw err;
      }
    },
  );
  app.get(
    '/api/admin/auth/me',
    {
      preHandler: app.requireAdmin,
      schema: { tags: ['admin'], summary: '当前管理员', response: { 200: envelopeSchema(adminSchema) } },
    },
    async (request) => ok(await currentAdmin(deps, signedInAdmin(request))),
  );
  app.post(
    '/api/admin/auth/logout',
    {
      preHandler: app.requireAdmin,
      schema: { tags: ['admin'], summary: '管理员退出', response: { 200: envelopeSchema(z.null()) } },
    },
    async (request, reply) => {
      await adminLogout(deps, signedInAdmin(request), adminRefreshCookie.read(app, request), request.ip);
      adminRefreshCookie.clear(reply);
      return ok(null, '已退出登录');
    },
  );
}
