import {
  createInstanceRequestSchema,
  envelopeSchema,
  INSTANCE_STATUSES,
  idSchema,
  instanceIdQuerySchema,
  instanceMessages,
  instanceSchema,
  pageSchema,
  powerOnQuerySchema,
  renameInstanceRequestSchema,
  resetInstanceRequestSchema,
} from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { signedInUser } from '../auth/index.ts';
import { dockerPathRoutes } from '../hosts/index.ts';
import { cloneRoutes } from './create/clone.routes.ts';
import { createInstance } from './create/create.usecases.ts';
import { failedCreateRoutes } from './create/failed-create.routes.ts';
import { createDockerGateway } from './gateway.ts';
import { userImageRoutes } from './images/images.routes.ts';
import type { InstancesModuleDeps } from './instances.deps.ts';
import { instanceErrors } from './instances.errors.ts';
import { toInstanceView } from './instances.models.view.ts';
import { createInstancesRepository, type InstanceWithPlace } from './instances.repository.ts';
import { powerOff, powerOn, release, resetSystem, settleNow } from './lifecycle/lifecycle.usecases.ts';
import { renewalRoutes } from './lifecycle/renewal.routes.ts';
import { instanceSettingsRoutes } from './settings.routes.ts';
import { instanceWaitRoutes } from './wait.routes.ts';

const viewSchema = envelopeSchema(instanceSchema);
const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(INSTANCE_STATUSES).optional(),
  /** 1: leave released instances out (the console's default view). */
  hideReleased: z.enum(['0', '1']).optional(),
  /** With hideReleased: those released at or after this instant still show (just released in view). */
  releasedSince: z.iso.datetime({ offset: true, message: '时间格式不正确' }).optional(),
});

export async function instancesRoutes(app: AppInstance, deps: InstancesModuleDeps) {
  const repo = createInstancesRepository(deps);
  const me = signedInUser;
  const toView = (inst: InstanceWithPlace) =>
    toInstanceView(inst, { now: deps.clock.now(), box: deps.box, retentionDays: deps.retentionDays });
  const view = async (id: number) => {
    const inst = await repo.find(id);
    if (!inst) throw instanceErrors.notFound();
    return toView(inst);
  };
  /** The caller's own instance of this tenant, else 404 (never "forbidden": ids are not to be probed). */
  const owned = async (r: FastifyRequest, id: number) => {
    const inst = await repo.findOwned(id, me(r).id, me(r).tenantId);
    if (!inst) throw instanceErrors.notFound();
    return inst;
  };
  const actor = (r: FastifyRequest) => ({ kind: 'user' as const, id: me(r).id });

  for (const url of ['/api/gpu/instance/create', '/api/v2/billing/instances/create']) {
    app.post(
      url,
      {
        // One scope for both paths: they are the same purchase.
        preHandler: [app.requireUser, app.idempotent('instances.create')],
        config: { access: 'instances', rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: {
          tags: ['instances'],
          summary: '创建实例（服务端重新校验并计价）',
          body: createInstanceRequestSchema,
          response: { 200: viewSchema },
        },
      },
      async (request) => {
        // Answered in CREATING once the charge is committed; provisioning runs as a job.
        const inst = await createInstance(
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
  }

  app.get(
    '/api/gpu/instances',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['instances'],
        summary: '我的实例',
        querystring: listQuery,
        response: { 200: envelopeSchema(pageSchema(instanceSchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      // A status filter names what to show; else hideReleased leaves the released out.
      const hide = q.hideReleased === '1' && !q.status;
      const { rows, total } = await repo.listForUser(me(request).id, me(request).tenantId, {
        page: q.page,
        size: q.size,
        status: q.status ? [q.status] : undefined,
        hideReleased: hide ? { since: q.releasedSince ? new Date(q.releasedSince) : undefined } : undefined,
      });
      const ctx = { now: deps.clock.now(), box: deps.box, retentionDays: deps.retentionDays };
      return ok({ list: rows.map((r) => toInstanceView(r, ctx)), total, page: q.page, size: q.size });
    },
  );

  app.patch(
    '/api/gpu/instances/:id',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags: ['instances'],
        summary: '重命名实例',
        params: z.object({ id: idSchema('实例编号无效') }),
        body: renameInstanceRequestSchema,
        response: { 200: viewSchema },
      },
    },
    async (request) => {
      const inst = await owned(request, request.params.id);
      await repo.update(inst.id, { name: request.body.instanceName });
      return ok(await view(inst.id), '实例已重命名');
    },
  );

  await failedCreateRoutes(app, deps, { owned, toView });
  await cloneRoutes(app, deps, { toView });
  await instanceSettingsRoutes(app, deps, { owned, view });
  await instanceWaitRoutes(app, { requests: deps.requests, owned, toView });
  await userImageRoutes(app, deps);

  app.get(
    '/api/gpu/instance/check-ssh',
    {
      preHandler: app.requireUser,
      // SSH connection details: never kept in a cache.
      config: { noStore: true },
      schema: {
        tags: ['instances'],
        summary: 'SSH 是否可连',
        querystring: z.object({ containerId: z.string().trim().min(1, '请提供容器ID').max(128) }),
        response: {
          200: envelopeSchema(
            z.object({ ready: z.boolean(), sshCommand: z.string().nullable(), status: z.string() }),
          ),
        },
      },
    },
    async (request) => {
      const { rows } = await repo.listForUser(me(request).id, me(request).tenantId, { page: 1, size: 1000 });
      const inst = rows.find((r) => r.containerId === request.query.containerId);
      if (!inst) throw instanceErrors.notFound();
      const v = await view(inst.id);
      return ok({
        ready: v.status === 'RUNNING' && v.sshCommand !== null,
        sshCommand: v.sshCommand,
        status: v.status,
      });
    },
  );

  const actions = {
    power_off: (r: FastifyRequest, id: number) => powerOff(deps, id, actor(r), 'user'),
    power_on: (r: FastifyRequest, id: number) => {
      const q = r.query as { gpus?: 'any'; mode?: 'nogpu' };
      return powerOn(deps, id, actor(r), { otherGpus: q.gpus === 'any', noGpu: q.mode === 'nogpu' });
    },
    release: (r: FastifyRequest, id: number) => release(deps, id, actor(r)),
  };
  // Answered in the transitional state: the driver call runs as a job (lifecycle/transitions.usecases.ts).
  const messages = { power_off: '正在关机', power_on: '正在开机', release: '正在释放' };
  for (const [name, act] of Object.entries(actions) as [
    keyof typeof actions,
    (typeof actions)[keyof typeof actions],
  ][]) {
    app.post(
      `/api/gpu/instance/${name}`,
      {
        preHandler: app.requireUser,
        config: { access: 'instances' },
        schema: {
          tags: ['instances'],
          summary: messages[name],
          querystring: name === 'power_on' ? powerOnQuerySchema : instanceIdQuerySchema,
          response: { 200: viewSchema },
        },
      },
      async (request) => {
        // The answer is the state this request set, not wherever its job has got to since.
        const inst = await owned(request, request.query.instance_uuid);
        return ok(toView({ ...inst, ...(await act(request, inst.id)) }), messages[name]);
      },
    );
  }

  app.post(
    '/api/gpu/instance/reset',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags: ['instances'],
        summary: '重置系统 / 更换镜像（需先关机；数据盘保留，系统盘清空）',
        querystring: instanceIdQuerySchema,
        // No body (or null): reset to the instance's own image.
        body: resetInstanceRequestSchema.nullish(),
        response: { 200: viewSchema },
      },
    },
    async (request) => {
      const inst = await owned(request, request.query.instance_uuid);
      const started = await resetSystem(deps, inst.id, actor(request), { image: request.body?.image });
      return ok(toView({ ...inst, ...started }), request.body?.image ? '正在更换镜像' : '正在重置系统');
    },
  );

  const idParams = z.object({ id: idSchema('实例编号无效') });
  app.post(
    '/api/v2/billing/instances/:id/settle',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags: ['billing'],
        summary: '立即结算按量费用',
        params: idParams,
        response: { 200: viewSchema },
      },
    },
    async (request) => {
      const { id } = await owned(request, request.params.id);
      await settleNow(deps, id);
      return ok(await view(id), '已结算');
    },
  );
  app.post(
    '/api/v2/billing/instances/:id/stop',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags: ['billing'],
        summary: '停止计费（关机）',
        params: idParams,
        body: z.object({ stopReason: z.string().trim().max(200).optional() }).optional(),
        response: { 200: viewSchema },
      },
    },
    async (request) => {
      const inst = await owned(request, request.params.id);
      const started = await powerOff(deps, inst.id, actor(request), 'user');
      return ok(toView({ ...inst, ...started }), '正在关机，关机完成时停止计费');
    },
  );

  await renewalRoutes(app, deps);
  await dockerPathRoutes(app, deps.hosts, createDockerGateway(deps));
}
