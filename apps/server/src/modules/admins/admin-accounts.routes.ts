import {
  adminListItemSchema,
  adminSessionIdSchema,
  adminSessionSchema,
  createAdminRequestSchema,
  envelopeSchema,
  idSchema,
  oneTimePasswordSchema,
  totpPolicySchema,
  updateAdminRequestSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor } from '../auth/index.ts';
import {
  createAdmin,
  getTotpPolicy,
  listAdmins,
  resetAdminPassword,
  resetAdminTotp,
  setTotpPolicy,
  updateAdmin,
} from './admin-accounts.usecases.ts';
import type { AdminsDeps } from './admins.deps.ts';
import { endSession, sessionsOf } from './own-account.usecases.ts';

const idParams = idParamsSchema('管理员编号无效');

/** The 管理员 screen (super administrators; the route table says who). */
export async function adminAccountRoutes(app: AppInstance, deps: AdminsDeps) {
  const admin = { preHandler: app.requireAdmin };
  const tags = ['admin-admins'];

  app.get(
    '/api/admin/admins',
    {
      ...admin,
      schema: {
        tags,
        summary: '管理员列表',
        response: { 200: envelopeSchema(z.array(adminListItemSchema)) },
      },
    },
    async () => ok(await listAdmins(deps)),
  );
  app.post(
    '/api/admin/admins',
    {
      ...admin,
      schema: {
        tags,
        summary: '新增管理员（返回一次性密码，首次登录须修改）',
        body: createAdminRequestSchema,
        response: { 200: envelopeSchema(z.object({ admin: adminListItemSchema, password: z.string() })) },
      },
    },
    async (request) => ok(await createAdmin(deps, adminActor(request), request.body), '管理员已创建'),
  );
  app.get(
    '/api/admin/admins/totp-policy',
    {
      ...admin,
      schema: {
        tags,
        summary: '各角色是否必须使用两步验证',
        response: { 200: envelopeSchema(totpPolicySchema) },
      },
    },
    async () => ok(await getTotpPolicy(deps)),
  );
  app.put(
    '/api/admin/admins/totp-policy',
    {
      ...admin,
      schema: {
        tags,
        summary: '设置各角色是否必须使用两步验证',
        body: totpPolicySchema,
        response: { 200: envelopeSchema(totpPolicySchema) },
      },
    },
    async (request) => ok(await setTotpPolicy(deps, adminActor(request), request.body), '已保存'),
  );
  app.put(
    '/api/admin/admins/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: '修改管理员角色、租户或状态（停用即结束其全部会话）',
        params: idParams,
        body: updateAdminRequestSchema,
        response: { 200: envelopeSchema(adminListItemSchema) },
      },
    },
    async (request) =>
      ok(await updateAdmin(deps, adminActor(request), request.params.id, request.body), '已保存'),
  );
  app.post(
    '/api/admin/admins/:id/reset-password',
    {
      ...admin,
      schema: {
        tags,
        summary: '重置管理员密码（返回一次性密码，下次登录须修改；结束其全部会话）',
        params: idParams,
        response: { 200: envelopeSchema(oneTimePasswordSchema) },
      },
    },
    async (request) =>
      ok(await resetAdminPassword(deps, adminActor(request), request.params.id), '密码已重置'),
  );
  app.post(
    '/api/admin/admins/:id/reset-totp',
    {
      ...admin,
      schema: {
        tags,
        summary: '重置管理员两步验证',
        params: idParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await resetAdminTotp(deps, adminActor(request), request.params.id);
      return ok(null, '两步验证已重置');
    },
  );
  app.get(
    '/api/admin/admins/:id/sessions',
    {
      ...admin,
      schema: {
        tags,
        summary: '管理员的登录会话',
        params: idParams,
        response: { 200: envelopeSchema(z.array(adminSessionSchema)) },
      },
    },
    async (request) => ok(await sessionsOf(deps, request.params.id, request.admin?.sessionId)),
  );
  app.delete(
    '/api/admin/admins/:id/sessions/:sid',
    {
      ...admin,
      schema: {
        tags,
        summary: '结束管理员的一个会话',
        params: z.object({ id: idSchema('管理员编号无效'), sid: adminSessionIdSchema }),
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await endSession(deps, adminActor(request), request.params.id, request.params.sid);
      return ok(null, '会话已结束');
    },
  );
}
