import {
  adminChangePasswordRequestSchema,
  adminSchema,
  adminSessionIdSchema,
  adminSessionSchema,
  envelopeSchema,
  recoveryCodesSchema,
  totpCodeRequestSchema,
  totpDisableRequestSchema,
  totpEnrolResponseSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor, signedInAdmin } from '../auth/index.ts';
import type { AdminsDeps } from './admins.deps.ts';
import {
  changeAdminPassword,
  confirmTotp,
  disableTotp,
  endSession,
  enrolTotp,
  regenerateRecoveryCodes,
  sessionsOf,
} from './own-account.usecases.ts';

/** An administrator's own account: password, 2FA and sessions (open even while a step is forced). */
export async function ownAccountRoutes(app: AppInstance, deps: AdminsDeps) {
  const signedIn = { preHandler: app.requireAdmin };
  const reauth = { rateLimit: { max: 20, timeWindow: '1 minute' } };
  const tags = ['admin-account'];

  app.post(
    '/api/admin/auth/change-password',
    {
      ...signedIn,
      config: reauth,
      schema: {
        tags,
        summary: '修改密码（需当前密码；结束其他会话）',
        body: adminChangePasswordRequestSchema,
        response: { 200: envelopeSchema(adminSchema) },
      },
    },
    async (request) =>
      ok(await changeAdminPassword(deps, signedInAdmin(request), request.body, request.ip), '密码已修改'),
  );
  app.post(
    '/api/admin/auth/totp/enrol',
    {
      ...signedIn,
      schema: {
        tags,
        summary: '开始开启两步验证：返回密钥与二维码内容',
        response: { 200: envelopeSchema(totpEnrolResponseSchema) },
      },
    },
    async (request) => ok(await enrolTotp(deps, signedInAdmin(request))),
  );
  app.post(
    '/api/admin/auth/totp/confirm',
    {
      ...signedIn,
      config: reauth,
      schema: {
        tags,
        summary: '用验证器中的验证码确认开启两步验证，返回恢复码（只显示一次）',
        body: totpCodeRequestSchema,
        response: { 200: envelopeSchema(recoveryCodesSchema) },
      },
    },
    async (request) =>
      ok(await confirmTotp(deps, signedInAdmin(request), request.body.code, request.ip), '两步验证已开启'),
  );
  app.post(
    '/api/admin/auth/totp/recovery-codes',
    {
      ...signedIn,
      config: reauth,
      schema: {
        tags,
        summary: '重新生成恢复码（旧恢复码作废）',
        body: totpCodeRequestSchema,
        response: { 200: envelopeSchema(recoveryCodesSchema) },
      },
    },
    async (request) =>
      ok(
        await regenerateRecoveryCodes(deps, signedInAdmin(request), request.body.code, request.ip),
        '已生成新的恢复码',
      ),
  );
  app.post(
    '/api/admin/auth/totp/disable',
    {
      ...signedIn,
      config: reauth,
      schema: {
        tags,
        summary: '关闭两步验证（需密码）',
        body: totpDisableRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await disableTotp(deps, signedInAdmin(request), request.body.password, request.ip);
      return ok(null, '两步验证已关闭');
    },
  );
  app.get(
    '/api/admin/auth/sessions',
    {
      ...signedIn,
      schema: {
        tags,
        summary: '我的登录会话',
        response: { 200: envelopeSchema(z.array(adminSessionSchema)) },
      },
    },
    async (request) => {
      const admin = signedInAdmin(request);
      return ok(await sessionsOf(deps, admin.id, admin.sessionId));
    },
  );
  app.delete(
    '/api/admin/auth/sessions/:sid',
    {
      ...signedIn,
      schema: {
        tags,
        summary: '结束我的一个会话',
        params: z.object({ sid: adminSessionIdSchema }),
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await endSession(deps, adminActor(request), signedInAdmin(request).id, request.params.sid);
      return ok(null, '会话已结束');
    },
  );
}
