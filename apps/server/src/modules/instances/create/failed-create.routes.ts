import { envelopeSchema, instanceIdQuerySchema, instanceSchema } from '@gpu/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../../platform/http/envelope.ts';
import type { AppInstance } from '../../../platform/http/types.ts';
import { signedInUser } from '../../auth/index.ts';
import type { InstancesModuleDeps } from '../instances.deps.ts';
import { instanceErrors } from '../instances.errors.ts';
import { createInstancesRepository, type InstanceWithPlace } from '../instances.repository.ts';
import { createInstance } from './create.usecases.ts';

const viewSchema = envelopeSchema(instanceSchema);
const me = signedInUser;

/** 重新创建 and 删除记录 of a failed create (instances.routes.ts hands its owner check and view). */
export async function failedCreateRoutes(
  app: AppInstance,
  deps: InstancesModuleDeps,
  h: {
    owned: (r: FastifyRequest, id: number) => Promise<InstanceWithPlace>;
    toView: (inst: InstanceWithPlace) => z.infer<typeof instanceSchema>;
  },
) {
  const repo = createInstancesRepository(deps);
  const { owned, toView } = h;
  // A failed create: buy again with the same settings (a new order, priced and charged anew),
  // or remove the record from the list (删除记录). Only FAILED instances of the caller.
  const failedOf = async (r: FastifyRequest, id: number) => {
    const inst = await owned(r, id);
    if (inst.status !== 'FAILED' || inst.dismissedAt) throw instanceErrors.notFound();
    return inst;
  };
  app.post(
    '/api/gpu/instance/recreate',
    {
      preHandler: [app.requireUser, app.idempotent('instances.create')],
      config: { access: 'instances', rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['instances'],
        summary: '按失败实例的配置重新创建',
        querystring: instanceIdQuerySchema,
        response: { 200: viewSchema },
      },
    },
    async (request) => {
      const failed = await failedOf(request, request.query.instance_uuid);
      const inst = await createInstance(
        deps,
        me(request),
        request.tenant,
        {
          machineId: failed.skuId,
          instanceName: failed.name,
          image: failed.image,
          gpuAmount: failed.gpuCount,
          duration: failed.duration,
          billingType: failed.billingType,
          voucherId: null,
          extraPorts: failed.extraPorts.map((p) => p.containerPort),
        },
        request.idempotency?.key,
      );
      // The failed record has done its job: the new instance takes its place in the list.
      await repo.update(failed.id, { dismissedAt: deps.clock.now() });
      return ok(toView(inst), '订单已提交，实例创建中');
    },
  );
  app.post(
    '/api/gpu/instance/dismiss',
    {
      preHandler: app.requireUser,
      config: { access: 'instances' },
      schema: {
        tags: ['instances'],
        summary: '删除创建失败的实例记录',
        querystring: instanceIdQuerySchema,
        response: { 200: envelopeSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const failed = await failedOf(request, request.query.instance_uuid);
      await repo.update(failed.id, { dismissedAt: deps.clock.now() });
      return ok({ id: failed.id }, '记录已删除');
    },
  );
}
