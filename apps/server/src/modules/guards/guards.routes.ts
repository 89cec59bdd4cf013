import { envelopeSchema, idSchema } from '@gpu/shared';
import {
  autoShutdownInputSchema,
  autoShutdownMarkersSchema,
  autoShutdownSchema,
  spendingCapsInputSchema,
  spendingCapsSchema,
} from '@gpu/shared/guards';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import { createInstancesRepository, instanceErrors } from '../instances/index.ts';
import type { GuardsDeps } from './guards.deps.ts';
import {
  autoShutdownMarkers,
  getAutoShutdown,
  getSpendingCaps,
  keepRunning,
  putAutoShutdown,
  putSpendingCaps,
} from './guards.usecases.ts';

/** 自动关机 of an instance, 保持运行, the console's markers, and the account's 消费上限. */
export async function guardsRoutes(app: AppInstance, deps: GuardsDeps) {
  const tags = ['guards'];
  const owned = async (r: FastifyRequest, id: number) => {
    const me = signedInUser(r);
    const inst = await createInstancesRepository(deps).findOwned(id, me.id, me.tenantId);
    if (!inst) throw instanceErrors.notFound();
    return inst;
  };
  const params = z.object({ uuid: idSchema('实例编号无效') });
  const reply = { 200: envelopeSchema(autoShutdownSchema) };

  app.get(
    '/api/gpu/instance/:uuid/auto-shutdown',
    { preHandler: app.requireUser, schema: { tags, summary: '自动关机设置', params, response: reply } },
    async (request) => ok(await getAutoShutdown(deps, await owned(request, request.params.uuid))),
  );
  app.put(
    '/api/gpu/instance/:uuid/auto-shutdown',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: { tags, summary: '保存自动关机设置', params, body: autoShutdownInputSchema, response: reply },
    },
    async (request) => {
      const inst = await owned(request, request.params.uuid);
      return ok(await putAutoShutdown(deps, inst, request.body), '自动关机设置已保存');
    },
  );
  app.post(
    '/api/gpu/instance/:uuid/auto-shutdown/keep-running',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: { tags, summary: '保持运行（重新计算空闲时长）', params, response: reply },
    },
    async (request) => {
      const inst = await owned(request, request.params.uuid);
      return ok(await keepRunning(deps, inst), '已保持运行，空闲时长重新计算');
    },
  );
  app.get(
    '/api/gpu/auto-shutdown',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: '即将自动关机的实例（定时关机、空闲关机提醒）',
        response: { 200: envelopeSchema(autoShutdownMarkersSchema) },
      },
    },
    async (request) => ok(await autoShutdownMarkers(deps, signedInUser(request).id)),
  );
  app.get(
    '/api/user/spending-caps',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: '消费上限与空闲关机默认设置',
        response: { 200: envelopeSchema(spendingCapsSchema) },
      },
    },
    async (request) => ok(await getSpendingCaps(deps, signedInUser(request).id)),
  );
  app.put(
    '/api/user/spending-caps',
    {
      preHandler: app.requireUser,
      config: { access: 'billing' },
      schema: {
        tags,
        summary: '保存消费上限与空闲关机默认设置',
        body: spendingCapsInputSchema,
        response: { 200: envelopeSchema(spendingCapsSchema) },
      },
    },
    async (request) =>
      ok(await putSpendingCaps(deps, signedInUser(request).id, request.body), '消费上限已保存'),
  );
}
