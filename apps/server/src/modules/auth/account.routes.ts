import {
  changePasswordRequestSchema,
  changePhoneRequestSchema,
  envelopeSchema,
  loginResponseSchema,
  signInSchema,
  userSchema,
} from '@gpu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import type { AuthModuleDeps } from './auth.deps.ts';
import * as auth from './auth.usecases.ts';
import { sessionAnswer as answer } from './refresh-cookie.ts';
import { signedInUser } from './signed-in.ts';

const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
/** Where a session a signed-in user renews comes from (the sign-ins list shows it). */
const originOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 500),
});

/** The signed-in user's own account: who they are, password, phone and recent sign-ins. */
export async function accountRoutes(app: AppInstance, deps: AuthModuleDeps) {
  const sessionAnswer = (request: FastifyRequest, reply: FastifyReply, s: auth.Session, message: string) =>
    answer(app, deps.isProduction, request, reply, s, message);

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
      config: { access: 'session', ...limit(10) },
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
      config: { access: 'session', ...limit(10) },
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
      // Account security stays in the console: a token does not read where its owner signs in.
      config: { access: 'session' },
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
