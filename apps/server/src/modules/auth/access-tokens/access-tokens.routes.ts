import {
  accessTokenCreatedSchema,
  accessTokenCreateSchema,
  accessTokenSchema,
  envelopeSchema,
  idSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../../platform/http/envelope.ts';
import type { AppInstance } from '../../../platform/http/types.ts';
import { perCustomerLimit, signedInUser } from '../signed-in.ts';
import {
  type AccessTokensDeps,
  createAccessToken,
  listAccessTokens,
  revokeAccessToken,
} from './access-tokens.usecases.ts';

/**
 * 账号安全 → API令牌. Signed-in browser sessions only: a token never lists, makes or revokes
 * tokens (`access: 'session'`).
 */
export async function accessTokensRoutes(app: AppInstance, deps: AccessTokensDeps) {
  const tags = ['access-tokens'];
  const access = 'session' as const;
  app.get(
    '/api/user/access-tokens',
    {
      preHandler: app.requireUser,
      config: { access },
      schema: {
        tags,
        summary: '我的访问令牌',
        response: { 200: envelopeSchema(z.array(accessTokenSchema)) },
      },
    },
    async (request) => ok(await listAccessTokens(deps, signedInUser(request).id)),
  );
  app.post(
    '/api/user/access-tokens',
    {
      preHandler: app.requireUser,
      config: { access, ...perCustomerLimit(10) },
      schema: {
        tags,
        summary: '创建访问令牌（令牌只在此时显示一次）',
        body: accessTokenCreateSchema,
        response: { 200: envelopeSchema(accessTokenCreatedSchema) },
      },
    },
    async (request) =>
      ok(
        await createAccessToken(deps, signedInUser(request).id, request.body),
        '令牌已创建，请立即复制保存，关闭后将无法再次查看',
      ),
  );
  app.delete(
    '/api/user/access-tokens/:id',
    {
      preHandler: app.requireUser,
      config: { access },
      schema: {
        tags,
        summary: '撤销访问令牌（立即失效）',
        params: z.object({ id: idSchema('令牌编号无效') }),
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await revokeAccessToken(deps, signedInUser(request).id, request.params.id);
      return ok(null, '令牌已撤销，使用它的请求将立即被拒绝');
    },
  );
}
