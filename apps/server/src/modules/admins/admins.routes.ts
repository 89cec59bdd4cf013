import { adminLoginRequestSchema, adminLoginResponseSchema, adminSchema, envelopeSchema } from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInAdmin } from '../auth/index.ts';
import type { AdminsDeps } from './admins.deps.ts';
import { adminLogin, adminLogout } from './admins.usecases.ts';

export async function adminAuthRoutes(app: AppInstance, deps: AdminsDeps) {
  app.post(
    '/api/admin/auth/login',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['admin'],
        summary: '管理员登录',
        body: adminLoginRequestSchema,
        response: { 200: envelopeSchema(adminLoginResponseSchema) },
      },
    },
    async (request) => ok(await adminLogin(deps, request.body, request.ip), '登录成功'),
  );
  app.get(
    '/api/admin/auth/me',
    {
      preHandler: app.requireAdmin,
      schema: { tags: ['admin'], summary: '当前管理员', response: { 200: envelopeSchema(adminSchema) } },
    },
    async (request) => ok(signedInAdmin(request)),
  );
  app.post(
    '/api/admin/auth/logout',
    {
      preHandler: app.requireAdmin,
      schema: { tags: ['admin'], summary: '管理员退出', response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      if (request.admin) await adminLogout(deps, request.admin, request.ip);
      return ok(null, '已退出登录');
    },
  );
}
