import { envelopeSchema, idSchema } from '@gpu/shared';
import {
  createdWebhookSchema,
  webhookInputSchema,
  webhookSchema,
  webhookSwitchSchema,
  webhookTestResultSchema,
} from '@gpu/shared/notifications';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { perCustomerLimit, signedInUser } from '../auth/index.ts';
import type { NoticesDeps } from './notices.usecases.ts';
import {
  addWebhook,
  deleteWebhook,
  listWebhooks,
  setWebhookEnabled,
  testWebhook,
} from './webhooks.usecases.ts';

/** The user's signed webhooks (issue 31): list with delivery logs, add, remove, test. */
export async function webhooksRoutes(app: AppInstance, deps: NoticesDeps) {
  const tags = ['notifications'];
  const guard = { preHandler: app.requireUser };
  const params = z.object({ id: idSchema('回调编号无效') });
  app.get(
    '/api/user/webhooks',
    {
      ...guard,
      schema: {
        tags,
        summary: '回调地址与投递记录',
        response: { 200: envelopeSchema(z.array(webhookSchema)) },
      },
    },
    async (request) => ok(await listWebhooks(deps, signedInUser(request).id)),
  );
  app.post(
    '/api/user/webhooks',
    {
      ...guard,
      config: { access: 'instances' },
      schema: {
        tags,
        summary: '添加回调地址（密钥只在此应答中完整显示）',
        body: webhookInputSchema,
        response: { 200: envelopeSchema(createdWebhookSchema) },
      },
    },
    async (request) =>
      ok(await addWebhook(deps, signedInUser(request).id, request.body.url), '回调地址已添加'),
  );
  app.put(
    '/api/user/webhooks/:id',
    {
      ...guard,
      config: { access: 'instances' },
      schema: {
        tags,
        summary: '启用或停用回调地址',
        params,
        body: webhookSwitchSchema,
        response: { 200: envelopeSchema(webhookSchema) },
      },
    },
    async (request) => {
      const { enabled } = request.body;
      const hook = await setWebhookEnabled(deps, signedInUser(request).id, request.params.id, enabled);
      return ok(hook, enabled ? '回调地址已启用' : '回调地址已停用');
    },
  );
  app.delete(
    '/api/user/webhooks/:id',
    {
      ...guard,
      config: { access: 'instances' },
      schema: { tags, summary: '删除回调地址', params, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await deleteWebhook(deps, signedInUser(request).id, request.params.id);
      return ok(null, '回调地址已删除');
    },
  );
  app.post(
    '/api/user/webhooks/:id/test',
    {
      ...guard,
      // Each test is a request from our servers to an address the user picks: a few a minute.
      config: { access: 'instances', ...perCustomerLimit(10) },
      schema: {
        tags,
        summary: '发送测试通知',
        params,
        response: { 200: envelopeSchema(webhookTestResultSchema) },
      },
    },
    async (request) => ok(await testWebhook(deps, signedInUser(request).id, request.params.id)),
  );
}
