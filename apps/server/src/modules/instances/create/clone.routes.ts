import {
  cloneInstanceRequestSchema,
  cloneTargetsSchema,
  envelopeSchema,
  instanceIdQuerySchema,
  instanceSchema,
} from '@gpu/shared';
import type { z } from 'zod';
import { ok } from '../../../platform/http/envelope.ts';
import type { AppInstance } from '../../../platform/http/types.ts';
import { signedInUser } from '../../auth/index.ts';
import type { InstancesModuleDeps } from '../instances.deps.ts';
import type { InstanceWithPlace } from '../instances.repository.ts';
import { cloneInstance, cloneTargets } from './clone.usecases.ts';

/** 克隆实例 (issue 30): bought as a create, answered in CREATING; the copy runs as its job. */
export async function cloneRoutes(
  app: AppInstance,
  deps: InstancesModuleDeps,
  h: { toView: (inst: InstanceWithPlace) => z.infer<typeof instanceSchema> },
) {
  app.post(
    '/api/gpu/instance/clone',
    {
      // The create's scope: a clone is a purchase like it, one key buys at most one instance.
      preHandler: [app.requireUser, app.idempotent('instances.create')],
      config: { access: 'instances', rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['instances'],
        summary: '克隆实例（源实例需先关机；按新实例计费；配置镜像仓库时可放到同地区其他主机）',
        querystring: instanceIdQuerySchema,
        body: cloneInstanceRequestSchema,
        response: { 200: envelopeSchema(instanceSchema) },
      },
    },
    async (request) => {
      const inst = await cloneInstance(
        deps,
        signedInUser(request),
        request.tenant,
        request.query.instance_uuid,
        request.body,
        request.idempotency?.key,
      );
      return ok(h.toView(inst), '正在克隆实例');
    },
  );

  app.get(
    '/api/gpu/instance/clone-targets',
    {
      preHandler: [app.requireUser],
      schema: {
        tags: ['instances'],
        summary: '克隆实例可选的机器（源实例的机器在前）',
        querystring: instanceIdQuerySchema,
        response: { 200: envelopeSchema(cloneTargetsSchema) },
      },
    },
    async (request) =>
      ok(await cloneTargets(deps, signedInUser(request), request.tenant, request.query.instance_uuid)),
  );
}
