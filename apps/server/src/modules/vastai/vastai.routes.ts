import {
  envelopeSchema,
  idSchema,
  instanceMessages,
  instanceSchema,
  vastaiCreateRequestSchema,
  vastaiOfferSchema,
  vastaiSshInfoSchema,
  vastaiStatusSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import { toInstanceView } from '../instances/index.ts';
import type { VastaiDeps } from './vastai.deps.ts';
import {
  createOverseasInstance,
  listOffers,
  listOverseasInstances,
  overseasPower,
  overseasSshInfo,
  overseasStatus,
} from './vastai.usecases.ts';

const instanceIdQuery = z.object({ instanceId: idSchema('实例编号无效') });

/** SPEC.md §7 GPU: Overseas. Power actions are POST …/instance/{start|stop|destroy}?instanceId=. */
export async function vastaiRoutes(app: AppInstance, deps: VastaiDeps) {
  const me = signedInUser;

  app.get(
    '/api/gpu/vastai/status',
    {
      schema: {
        tags: ['vastai'],
        summary: '海外 GPU（vast.ai）是否已配置、机器列表最近刷新',
        response: { 200: envelopeSchema(vastaiStatusSchema) },
      },
    },
    async () => ok(await overseasStatus(deps)),
  );

  app.get(
    '/api/gpu/vastai/offers',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['vastai'],
        summary: '海外可租机器（定时从 vast.ai 刷新）',
        response: { 200: envelopeSchema(z.array(vastaiOfferSchema)) },
      },
    },
    async () => ok(await listOffers(deps)),
  );

  app.get(
    '/api/gpu/vastai/instances',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['vastai'],
        summary: '我的海外实例',
        response: { 200: envelopeSchema(z.array(instanceSchema)) },
      },
    },
    async (request) => ok(await listOverseasInstances(deps, me(request))),
  );

  app.post(
    '/api/gpu/vastai/instance/create',
    {
      preHandler: [app.requireUser, app.idempotent('vastai.create')],
      config: { access: 'instances', rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['vastai'],
        summary: '创建海外实例（按量计费，vast.ai 报告运行后开始计费）',
        body: vastaiCreateRequestSchema,
        response: { 200: envelopeSchema(instanceSchema) },
      },
    },
    async (request) => {
      const inst = await createOverseasInstance(
        deps,
        me(request),
        request.tenant,
        request.body,
        request.idempotency?.key,
      );
      const ctx = { now: deps.clock.now(), box: deps.box, retentionDays: deps.retentionDays };
      return ok(toInstanceView(inst, ctx), instanceMessages.created);
    },
  );

  for (const action of ['start', 'stop', 'destroy'] as const) {
    app.post(
      `/api/gpu/vastai/instance/${action}`,
      {
        preHandler: app.requireUser,
        config: { access: 'instances' },
        schema: {
          tags: ['vastai'],
          summary: { start: '海外实例开机', stop: '海外实例关机', destroy: '释放海外实例' }[action],
          querystring: instanceIdQuery,
          response: { 200: envelopeSchema(instanceSchema) },
        },
      },
      async (request) => ok(await overseasPower(deps, me(request), request.query.instanceId, action)),
    );
  }

  app.get(
    '/api/gpu/vastai/instance/:id/ssh-info',
    {
      preHandler: app.requireUser,
      // SSH connection details: never kept in a cache.
      config: { noStore: true },
      schema: {
        tags: ['vastai'],
        summary: '海外实例 SSH 连接信息',
        params: z.object({ id: idSchema('实例编号无效') }),
        response: { 200: envelopeSchema(vastaiSshInfoSchema) },
      },
    },
    async (request) => ok(await overseasSshInfo(deps, me(request), request.params.id)),
  );
}
